/* Internal: fit VMD bone keys (whole frames, Bezier curves per axis) to a densely sampled motion.
 *
 * A track is one bone: up to three position channels and one rotation channel, sampled
 * `per_frame` times per frame from frame 0 to `frames` inclusive. The fitter places keys on whole
 * frames so that between two keys every channel stays within tolerance of every sample when played
 * the way babylon-mmd plays VMD: per position axis y = va + (vb - va) * Bezier(x), rotation
 * slerp(qa, qb', Bezier(x)) with qb' = -qb when dot(qa, qb) < 0 (shortest path).
 *
 * Keys are forced at frame 0, at `frames`, wherever `forced` says, and at both ends of every run of
 * two or more frames over which all channels are bit-for-bit constant (so a bone that holds still
 * is exactly still between those keys). Between forced keys the fitter gallops: it extends a segment
 * while it fits on the whole-frame samples, then bisects, checks the longest fitting segment on every
 * sample (shortening it if needed) and keys it. The first length tried is the segment's a period
 * earlier (when the track gives a period) or the previous segment's, then the bracket widens from there. Each axis of a segment gets the cubic Y(s) with X(s)
 * close to linear time (x1 = 42, x2 = 85) whose y1, y2 minimise the squared error (then rounded to
 * 0..127); steep ends also try shorter x handles. A segment of one frame is always accepted, and its
 * error is what it is (reported).
 *
 * One context serves many tracks of the same length (it holds the scratch memory and a table of
 * curve parameters shared by all of them).
 */
#ifndef PROCMOTION_KEYFIT_H
#define PROCMOTION_KEYFIT_H

#include "common/internal.h"
#include "math/inline.h"
#include "procmotion/vmd.h"

typedef struct pmi_keyfit_track {
    uint32_t frames;       /* last frame; samples cover 0 .. frames * per_frame */
    uint32_t per_frame;    /* samples per frame, >= 1 */
    const double *pos[3];  /* [frames * per_frame + 1] each, or NULL = constant 0 */
    const double *rot;     /* [(frames * per_frame + 1) * 4] x y z w, sign-continuous, or NULL = identity */
    const uint8_t *forced; /* optional [frames + 1]: non-zero = a key must sit on this frame */
    double pos_tol;        /* units */
    double rot_tol;        /* radians */
    double period;         /* optional hint, frames: the motion roughly repeats with this period, so a
                              segment is first tried as long as the one a period earlier (0 = none) */
} pmi_keyfit_track;

typedef struct pmi_keyfit_key {
    uint32_t frame;
    float pos[3];
    float rot[4];
    uint8_t curve[4][4]; /* per axis X Y Z R: x1 y1 x2 y2, 0..127 (curve of the segment ending here) */
} pmi_keyfit_key;

typedef struct pmi_keyfit_result {
    uint32_t count;       /* keys written */
    double max_pos_error; /* units, over every sample */
    double max_rot_error; /* radians */
} pmi_keyfit_result;

/* Store rotation sample i of a track (x y z w at q + 4 i) sign-continuous: flipped when it points away from
 * sample i - 1 (sample 0: when w < 0). */
static inline void pmi_keyfit_put_rotation(double *q, uint32_t i, pmi_dq v) {
    double *d = q + 4 * (size_t)i;
    if (i > 0 ? d[-4] * v.x + d[-3] * v.y + d[-2] * v.z + d[-1] * v.w < 0 : v.w < 0) v = (pmi_dq){-v.x, -v.y, -v.z, -v.w};
    d[0] = v.x, d[1] = v.y, d[2] = v.z, d[3] = v.w;
}

typedef struct pmi_keyfit pmi_keyfit;

/* A context for tracks of `frames` frames at `per_frame` samples per frame. NULL when out of memory. */
pmi_keyfit *pmi_keyfit_create(const pm_allocator *a, uint32_t frames, uint32_t per_frame, pm_error *err);
void pmi_keyfit_free(pmi_keyfit *k);

/* keys must hold track->frames + 1 entries; the track must match the context's frames / per_frame. */
pm_result pmi_keyfit_track_fit(pmi_keyfit *k, const pmi_keyfit_track *track, pmi_keyfit_key *keys,
                               pmi_keyfit_result *result, pm_error *err);

/* Add `count` fitted keys to vmd as bone `name`'s keys (their curves packed as VMD interpolation). */
pm_result pmi_keyfit_add_keys(pm_vmd *vmd, const char *name, const pmi_keyfit_key *keys, uint32_t count, pm_error *err);

/* The curve as babylon-mmd evaluates it (to 1e-12 rather than its 1e-5): progress x -> Y. */
double pmi_keyfit_bezier(const uint8_t c[4], double x);

#endif

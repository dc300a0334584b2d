/* Humanoid roles from the hierarchy and the rest geometry alone (see procmotion/humanoid.h). */
#include "procmotion/humanoid.h"

#include "common/internal.h"
#include "math/inline.h"

#include <math.h>

typedef struct infer {
    const uint32_t *parents;
    const uint8_t *candidate;
    uint32_t n;
    pmi_dv *pos;
    double *reach;    /* longest path from the joint down its subtree (rest distances) */
    uint32_t *next;   /* the child that path goes through, PM_NO_INDEX for a leaf */
    uint32_t *depth;
} infer;

static double branch_len(const infer *g, uint32_t j, uint32_t c) { return pmi_dv_len(pmi_dv_sub(g->pos[c], g->pos[j])) + g->reach[c]; }

/* The children of j whose subtrees matter (their path at least 5 % of the longest), longest first, at
 * most cap of them. */
static uint32_t branches(const infer *g, uint32_t j, uint32_t *out, uint32_t cap) {
    double longest = 0;
    for (uint32_t c = 0; c < g->n; c++)
        if (g->parents[c] == j) longest = fmax(longest, branch_len(g, j, c));
    uint32_t k = 0;
    for (uint32_t c = 0; c < g->n && longest > 0; c++) {
        if (g->parents[c] != j) continue;
        const double len = branch_len(g, j, c);
        if (len < 0.05 * longest) continue;
        uint32_t i = k < cap ? k++ : cap; /* insert, shifting the shorter ones down (the shortest drops when full) */
        for (; i > 0 && branch_len(g, j, out[i - 1]) < len; i--)
            if (i < cap) out[i] = out[i - 1];
        if (i < cap) out[i] = c;
    }
    return k;
}

/* The first joint (fewest steps down) of the subtree at c with three branches, PM_NO_INDEX for none. */
static uint32_t first_fork(const infer *g, uint32_t c) {
    uint32_t best = PM_NO_INDEX, b[3];
    for (uint32_t j = 0; j < g->n; j++) {
        uint32_t a = j;
        while (a != PM_NO_INDEX && a != c) a = g->parents[a];
        if (a != c || !g->candidate[j] || branches(g, j, b, 3) < 3) continue;
        if (best == PM_NO_INDEX || g->depth[j] < g->depth[best]) best = j;
    }
    return best;
}

/* A limb down the main path from c: the two long segments nearest its end (both at least half the
 * longest) are the upper and the lower part; *root gets the joint before them (a clavicle, a hip helper).
 * Returns false when the path is too short. */
static bool limb(const infer *g, uint32_t c, uint32_t *root, uint32_t *upper, uint32_t *lower, uint32_t *end, uint32_t *tip) {
    uint32_t path[64], k = 0;
    for (uint32_t j = c; j != PM_NO_INDEX && k < 64; j = g->next[j]) path[k++] = j;
    if (k < 3) return false;
    double seg[64], longest = 0;
    for (uint32_t i = 0; i + 1 < k; i++) seg[i] = pmi_dv_len(pmi_dv_sub(g->pos[path[i + 1]], g->pos[path[i]])), longest = fmax(longest, seg[i]);
    int at = -1;
    for (uint32_t i = 0; i + 2 < k; i++) /* the end must be a joint (a BVH End Site is not) */
        if (seg[i] >= 0.5 * longest && seg[i + 1] >= 0.5 * longest && g->candidate[path[i + 2]]) at = (int)i;
    if (at < 0) return false;
    *root = PM_NO_INDEX;
    for (int i = at - 1; i >= 0 && *root == PM_NO_INDEX; i--)
        if (g->candidate[path[i]]) *root = path[i];
    *upper = path[at], *lower = path[at + 1], *end = path[at + 2];
    *tip = PM_NO_INDEX;
    for (uint32_t i = (uint32_t)at + 3; i < k && *tip == PM_NO_INDEX; i++)
        if (g->candidate[path[i]] && seg[i - 1] > 1e-6 * longest) *tip = path[i];
    return g->candidate[*upper] && g->candidate[*lower] && g->candidate[*end];
}

pm_result pm_humanoid_infer_roles(const uint32_t *parents, const pm_mat4 *rest, const uint8_t *candidate, uint32_t count,
                                  const pm_allocator *allocator, pm_rig_roles *out, double *confidence, pm_error *err) {
    if (!parents || !rest || !candidate || !out || !confidence)
        return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "humanoid: pm_humanoid_infer_roles needs parents, rest, candidate, out and confidence");
    pm_allocator a = allocator ? *allocator : (pm_allocator){0};
    memset(out, 0, sizeof *out);
    for (int r = 0; r < PM_RIG_ROLE_COUNT; r++) out->bone[r] = PM_NO_INDEX;
    *confidence = 0;
    infer g = {parents, candidate, count, NULL, NULL, NULL, NULL};
    g.pos = pmi_alloc_array(&a, count ? count : 1, sizeof *g.pos, err, "humanoid: inference");
    g.reach = g.pos ? pmi_alloc_array(&a, count ? count : 1, sizeof *g.reach, err, "humanoid: inference") : NULL;
    g.next = g.reach ? pmi_alloc_array(&a, count ? count : 1, sizeof *g.next, err, "humanoid: inference") : NULL;
    g.depth = g.next ? pmi_alloc_array(&a, count ? count : 1, sizeof *g.depth, err, "humanoid: inference") : NULL;
    pm_result r = g.depth ? PM_OK : PM_ERR_OUT_OF_MEMORY;
    uint32_t max_depth = 0;
    for (uint32_t j = 0; j < count && r == PM_OK; j++) {
        g.pos[j] = pmi_mat_translation(rest[j].m);
        g.reach[j] = 0, g.next[j] = PM_NO_INDEX, g.depth[j] = 0;
        for (uint32_t p = parents[j]; p != PM_NO_INDEX && g.depth[j] <= count; p = p < count ? parents[p] : PM_NO_INDEX) g.depth[j]++;
        if (g.depth[j] > count) r = pmi_fail(err, PM_ERR_BAD_FORMAT, "humanoid: the joints' parents make a cycle at joint %u", j);
        max_depth = g.depth[j] > max_depth ? g.depth[j] : max_depth;
    }
    /* the longest path down each subtree, deepest joints first */
    for (uint32_t d = max_depth + 1; d-- > 0 && r == PM_OK;)
        for (uint32_t j = 0; j < count; j++) {
            if (g.depth[j] != d || parents[j] == PM_NO_INDEX) continue;
            uint32_t p = parents[j];
            double len = pmi_dv_len(pmi_dv_sub(g.pos[j], g.pos[p])) + g.reach[j];
            if (g.next[p] == PM_NO_INDEX || len > g.reach[p]) g.reach[p] = len, g.next[p] = j;
        }
    /* the hips: the highest joint whose branches are two limbs alike and a trunk that forks into two more */
    uint32_t hips = PM_NO_INDEX, chest = PM_NO_INDEX, legs[2] = {0, 0}, arms[2] = {0, 0}, neck_branch = PM_NO_INDEX;
    double best = 0;
    for (uint32_t j = 0; j < count && r == PM_OK; j++) {
        uint32_t b[6];
        uint32_t nb = candidate[j] ? branches(&g, j, b, 6) : 0;
        if (nb < 3) continue;
        for (uint32_t t = 0; t < nb; t++) {
            uint32_t k = first_fork(&g, b[t]), ab[6];
            if (k == PM_NO_INDEX) continue;
            uint32_t l[2], n = 0;
            for (uint32_t i = 0; i < nb && n < 2; i++)
                if (i != t) l[n++] = b[i];
            if (n < 2 || branches(&g, k, ab, 6) < 3) continue;
            double ls = fmin(branch_len(&g, j, l[0]), branch_len(&g, j, l[1])) / fmax(branch_len(&g, j, l[0]), branch_len(&g, j, l[1]));
            double as = fmin(branch_len(&g, k, ab[0]), branch_len(&g, k, ab[1])) / fmax(branch_len(&g, k, ab[0]), branch_len(&g, k, ab[1]));
            double score = ls * as - 1e-3 * g.depth[j];
            if (score > best) best = score, hips = j, chest = k, legs[0] = l[0], legs[1] = l[1], arms[0] = ab[0], arms[1] = ab[1], neck_branch = ab[2];
        }
    }
    if (r == PM_OK && hips == PM_NO_INDEX)
        r = pmi_fail(err, PM_ERR_NOT_FOUND, "humanoid: no joint branches into two legs and a trunk with two arms");
    uint32_t lr[2][5], ar[2][5]; /* root, upper, lower, end, tip */
    for (int s = 0; s < 2 && r == PM_OK; s++)
        if (!limb(&g, legs[s], &lr[s][0], &lr[s][1], &lr[s][2], &lr[s][3], &lr[s][4]) ||
            !limb(&g, arms[s], &ar[s][0], &ar[s][1], &ar[s][2], &ar[s][3], &ar[s][4]))
            r = pmi_fail(err, PM_ERR_NOT_FOUND, "humanoid: a limb has fewer than three long joints");
    if (r == PM_OK) {
        /* up from the hips to the chest; forward the way the toes (else the knees) point; left = up x forward,
           as a right-handed file has it */
        pmi_dv up = pmi_dv_normalize(pmi_dv_sub(g.pos[chest], g.pos[hips])), fwd = {0, 0, 0};
        bool toes = false;
        for (int s = 0; s < 2; s++)
            if (lr[s][4] != PM_NO_INDEX) fwd = pmi_dv_add(fwd, pmi_dv_sub(g.pos[lr[s][4]], g.pos[lr[s][3]])), toes = true;
        if (!toes)
            for (int s = 0; s < 2; s++)
                fwd = pmi_dv_add(fwd, pmi_dv_sub(g.pos[lr[s][2]], pmi_dv_scale(pmi_dv_add(g.pos[lr[s][1]], g.pos[lr[s][3]]), 0.5)));
        fwd = pmi_dv_sub(fwd, pmi_dv_scale(up, pmi_dv_dot(fwd, up)));
        const double fwd_len = pmi_dv_len(fwd);
        pmi_dv left = pmi_dv_cross(up, fwd_len > 0 ? pmi_dv_scale(fwd, 1 / fwd_len) : fwd);
        const int leg_left = pmi_dv_dot(pmi_dv_sub(g.pos[lr[0][1]], g.pos[lr[1][1]]), left) >= 0 ? 0 : 1;
        const int arm_left = pmi_dv_dot(pmi_dv_sub(g.pos[ar[0][1]], g.pos[ar[1][1]]), left) >= 0 ? 0 : 1;
        for (int side = 0; side < 2; side++) {
            const uint32_t *L = lr[side == 0 ? leg_left : 1 - leg_left], *A = ar[side == 0 ? arm_left : 1 - arm_left];
            out->bone[PM_RIG_SIDED(PM_RIG_LEFT_LEG, side)] = L[1];
            out->bone[PM_RIG_SIDED(PM_RIG_LEFT_KNEE, side)] = L[2];
            out->bone[PM_RIG_SIDED(PM_RIG_LEFT_ANKLE, side)] = L[3];
            out->bone[PM_RIG_SIDED(PM_RIG_LEFT_TOE, side)] = L[4];
            out->bone[PM_RIG_SIDED(PM_RIG_LEFT_SHOULDER, side)] = A[0];
            out->bone[PM_RIG_SIDED(PM_RIG_LEFT_ARM, side)] = A[1];
            out->bone[PM_RIG_SIDED(PM_RIG_LEFT_ELBOW, side)] = A[2];
            out->bone[PM_RIG_SIDED(PM_RIG_LEFT_WRIST, side)] = A[3];
        }
        out->bone[PM_RIG_LOWER_BODY] = hips;
        /* the spine: the candidates from the hips to the chest */
        uint32_t spine[64], ns = 0;
        for (uint32_t j = chest; j != PM_NO_INDEX && j != hips && ns < 64; j = parents[j])
            if (candidate[j]) spine[ns++] = j;
        /* spine[] runs chest .. first above the hips */
        if (ns >= 1) out->bone[PM_RIG_UPPER_BODY] = spine[ns - 1];
        if (ns == 2) out->bone[PM_RIG_UPPER_BODY2] = spine[0];
        if (ns >= 3) out->bone[PM_RIG_UPPER_BODY2] = spine[1], out->bone[PM_RIG_UPPER_BODY3] = spine[0];
        /* neck and head: the last two candidates of the third branch's main path */
        uint32_t last[2] = {PM_NO_INDEX, PM_NO_INDEX};
        for (uint32_t j = neck_branch; j != PM_NO_INDEX; j = g.next[j])
            if (candidate[j]) last[0] = last[1], last[1] = j;
        out->bone[PM_RIG_HEAD] = last[1];
        out->bone[PM_RIG_NECK] = last[0];
        for (int q = 0; q < PM_RIG_ROLE_COUNT; q++) out->found += out->bone[q] != PM_NO_INDEX;
        *confidence = fmax(0, best) * (toes ? 1.0 : fwd_len > 0 ? 0.8 : 0.5);
    }
    pmi_free(&a, g.pos);
    pmi_free(&a, g.reach);
    pmi_free(&a, g.next);
    pmi_free(&a, g.depth);
    return r;
}

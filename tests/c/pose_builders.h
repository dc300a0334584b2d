/* pose_builders.h -- hand-built skeletons and motions for the pose and IK tests.
 *
 * tb_skel fills a pm_skeleton in place (no allocation, no reader involved), so the evaluator is tested
 * on exactly the bones a test describes. tb_leg_rig() builds the MMD semi-standard lower body from the
 * figures in ../shared/NOTES.md with a standard 足ＩＫ chain (40 loops, 2 rad, knee limited to
 * -180..-0.5 degrees about X). */
#ifndef PM_POSE_BUILDERS_H
#define PM_POSE_BUILDERS_H

#include "procmotion/pose.h"
#include "procmotion/vmd.h"

#include <string.h>

#define TB_MAX_BONES 64
#define TB_MAX_LINKS 64

typedef struct tb_skel {
    pm_skeleton sk;
    pm_bone bones[TB_MAX_BONES];
    pm_ik_link links[TB_MAX_LINKS];
    uint32_t links_used;
} tb_skel;

static inline void tb_init(tb_skel *t) {
    memset(t, 0, sizeof *t);
    t->sk.bones = t->bones;
}

static inline uint32_t tb_bone(tb_skel *t, const char *name, float x, float y, float z, uint32_t parent) {
    uint32_t i = t->sk.bone_count++;
    pm_bone *b = &t->bones[i];
    memset(b, 0, sizeof *b);
    b->name.data = name;
    b->name.length = (uint32_t)strlen(name);
    b->name_en.data = "";
    b->position = pm_vec3_make(x, y, z);
    b->parent = parent;
    b->flags = PM_BONE_ROTATABLE | PM_BONE_VISIBLE | PM_BONE_ENABLED;
    b->tail_bone = PM_NO_INDEX;
    b->append_parent = PM_NO_INDEX;
    return i;
}

static inline void tb_append(tb_skel *t, uint32_t bone, uint32_t src, float ratio, uint32_t flags) {
    t->bones[bone].flags |= flags;
    t->bones[bone].append_parent = src;
    t->bones[bone].append_ratio = ratio;
}

/* IK on `bone` reaching `target` through `count` links (nearest the target first). */
static inline void tb_ik(tb_skel *t, uint32_t bone, uint32_t target, uint32_t loops, float limit_angle,
                         const pm_ik_link *links, uint32_t count) {
    pm_bone *b = &t->bones[bone];
    b->flags |= PM_BONE_IK | PM_BONE_TRANSLATABLE;
    b->has_ik = true;
    b->ik.target = target;
    b->ik.loop_count = loops;
    b->ik.limit_angle = limit_angle;
    b->ik.link_count = count;
    b->ik.links = t->links + t->links_used;
    memcpy(b->ik.links, links, count * sizeof *links);
    t->links_used += count;
}

static inline pm_ik_link tb_link(uint32_t bone) {
    pm_ik_link l;
    memset(&l, 0, sizeof l);
    l.bone = bone;
    return l;
}

static inline pm_ik_link tb_knee(uint32_t bone) {
    pm_ik_link l = tb_link(bone);
    l.has_limit = true;
    l.limit_min = pm_vec3_make((float)(-PM_PI), 0, 0);
    l.limit_max = pm_vec3_make((float)(-0.5 * PM_PI / 180), 0, 0);
    return l;
}

typedef struct tb_leg_rig {
    uint32_t root, center, lower, leg, knee, ankle, toe, leg_ik, toe_ik;
} tb_leg_rig;

/* 全ての親 > センター > 下半身 > 左足 > 左ひざ > 左足首 > 左つま先, and 全ての親 > 左足ＩＫ > 左つま先ＩＫ. */
static inline tb_leg_rig tb_leg(tb_skel *t) {
    tb_leg_rig r;
    r.root = tb_bone(t, "全ての親", 0, 0, 0, PM_NO_INDEX);
    r.center = tb_bone(t, "センター", 0, 8, 0, r.root);
    r.lower = tb_bone(t, "下半身", 0, 13.243f, -0.255f, r.center);
    r.leg = tb_bone(t, "左足", 0.797f, 10.753f, -0.073f, r.lower);
    r.knee = tb_bone(t, "左ひざ", 0.684f, 5.984f, -0.817f, r.leg);
    r.ankle = tb_bone(t, "左足首", 0.874f, 1.470f, -0.001f, r.knee);
    r.toe = tb_bone(t, "左つま先", 0.927f, 0.033f, -2.409f, r.ankle);
    r.leg_ik = tb_bone(t, "左足ＩＫ", 0.875f, 1.34f, 0, r.root);
    r.toe_ik = tb_bone(t, "左つま先ＩＫ", 0.929f, 0, -2.464f, r.leg_ik);
    const pm_ik_link leg_links[2] = {tb_knee(r.knee), tb_link(r.leg)};
    tb_ik(t, r.leg_ik, r.ankle, 40, 2.0f, leg_links, 2);
    const pm_ik_link toe_links[1] = {tb_link(r.ankle)};
    tb_ik(t, r.toe_ik, r.toe, 3, 4.0f, toe_links, 1);
    /* as in standard models, the legs and IK bones share layer 0 and IK runs in index order */
    return r;
}

/* A VMD bone key with a linear curve (NULL interpolation) or the given per-axis curves. */
static inline pm_result tb_key(pm_vmd *v, const char *name, uint32_t frame, float px, float py, float pz, pm_quat q,
                               const uint8_t curves[4][4]) {
    const float pos[3] = {px, py, pz}, rot[4] = {q.x, q.y, q.z, q.w};
    uint8_t ip[64];
    if (curves) pm_vmd_interp_pack(curves, ip);
    return pm_vmd_add_bone_key(v, name, frame, pos, rot, curves ? ip : NULL, NULL);
}

#endif

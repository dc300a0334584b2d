/* What generators look up on the model they write for: the morphs that play a role, and the body as
 * capsules (procmotion/rig.h). */
#include "rig/rig_internal.h"

#include "procmotion/text.h"

enum { NAME_CAP = 96 };

static const char *const MORPH_NAMES[PM_RIG_MORPH_COUNT][8] = {
    [PM_RIG_MORPH_BLINK] = {"まばたき", "瞬き", "blink", "Fcl_EYE_Close", "eye_close", "eyeBlink", 0},
    [PM_RIG_MORPH_SMILE] = {"口角上げ", "微笑み", "にやり", "smile", "Fcl_MTH_Fun", "mouth_smile", 0},
};

static bool same_key(const char *a, const char *b) {
    char ka[NAME_CAP], kb[NAME_CAP];
    size_t na = pm_name_key(a, strlen(a), ka, sizeof ka), nb = pm_name_key(b, strlen(b), kb, sizeof kb);
    return na && na < sizeof ka && na == nb && memcmp(ka, kb, na) == 0;
}

static uint32_t morph_count(const pm_target_model *m) {
    return !m ? 0 : m->skeleton ? m->skeleton->morph_count : m->morph_names ? m->morph_count : 0;
}
static const char *morph_name(const pm_target_model *m, uint32_t i) {
    return m->skeleton ? m->skeleton->morph_names[i].data : m->morph_names[i];
}

const char *pm_rig_target_morph(const pm_target_model *model, pm_rig_morph role) {
    if ((unsigned)role >= PM_RIG_MORPH_COUNT) return NULL;
    const uint32_t n = morph_count(model);
    for (int k = 0; MORPH_NAMES[role][k]; k++)
        for (uint32_t i = 0; i < n; i++) {
            const char *name = morph_name(model, i);
            if (name && same_key(name, MORPH_NAMES[role][k])) return name;
        }
    return NULL;
}

const char *pm_rig_capsule_name(pm_rig_capsule_id id) {
    static const char *const names[PM_RIG_CAPSULE_COUNT] = {"torso", "head", "leftThigh", "rightThigh"};
    return (unsigned)id < PM_RIG_CAPSULE_COUNT ? names[id] : NULL;
}

static pm_vec3 rest(const pm_rig *rig, uint32_t b) { return rig->skeleton->bones[b].position; }

void pm_rig_roles_hips_as_center(pm_rig_roles *roles) {
    if (!roles || roles->bone[PM_RIG_CENTER] != PM_NO_INDEX || roles->bone[PM_RIG_LOWER_BODY] == PM_NO_INDEX ||
        roles->naming[PM_RIG_LOWER_BODY] == PM_RIG_NAMING_MMD || roles->naming[PM_RIG_LOWER_BODY] == PM_RIG_NAMING_ENGLISH)
        return;
    roles->bone[PM_RIG_CENTER] = roles->bone[PM_RIG_LOWER_BODY];
    roles->bone[PM_RIG_LOWER_BODY] = PM_NO_INDEX;
}

void pm_rig_body_capsules(const pm_rig *rig, pm_rig_capsule out[PM_RIG_CAPSULE_COUNT]) {
    memset(out, 0, sizeof(pm_rig_capsule) * PM_RIG_CAPSULE_COUNT);
    if (!rig || !rig->skeleton) return;
    const uint32_t *role = rig->roles.bone;
    const float L = rig->leg_length > 0 ? rig->leg_length : 9.419f;
    const bool legs = rig->legs[0].present && rig->legs[1].present;
    /* torso: from the pelvis (above the hip joints' midpoint) to the base of the neck */
    uint32_t pelvis = role[PM_RIG_LOWER_BODY] != PM_NO_INDEX ? role[PM_RIG_LOWER_BODY] : role[PM_RIG_CENTER];
    uint32_t chest = role[PM_RIG_UPPER_BODY2] != PM_NO_INDEX ? role[PM_RIG_UPPER_BODY2] : role[PM_RIG_UPPER_BODY];
    uint32_t neck = role[PM_RIG_NECK] != PM_NO_INDEX ? role[PM_RIG_NECK] : role[PM_RIG_HEAD];
    pm_rig_capsule *c = &out[PM_RIG_CAPSULE_TORSO];
    if (pelvis != PM_NO_INDEX && chest != PM_NO_INDEX && neck != PM_NO_INDEX && legs) {
        c->radius = PM_RIG_TORSO_RADIUS * L;
        pm_vec3 h0 = rest(rig, rig->legs[0].hip), h1 = rest(rig, rig->legs[1].hip), top = rest(rig, neck);
        c->bone[0] = pelvis, c->bone[1] = chest;
        c->end[0] = pm_vec3_make(0.5f * (h0.x + h1.x), 0.5f * (h0.y + h1.y) + 0.6f * c->radius, 0.5f * (h0.z + h1.z));
        c->end[1] = pm_vec3_make(top.x, top.y - 0.5f * c->radius, top.z);
        c->present = c->end[1].y > c->end[0].y;
    }
    /* head: a sphere above 頭 */
    c = &out[PM_RIG_CAPSULE_HEAD];
    if (role[PM_RIG_HEAD] != PM_NO_INDEX) {
        c->radius = PM_RIG_HEAD_RADIUS * L;
        pm_vec3 h = rest(rig, role[PM_RIG_HEAD]);
        c->bone[0] = c->bone[1] = role[PM_RIG_HEAD];
        c->end[0] = c->end[1] = pm_vec3_make(h.x, h.y + c->radius, h.z);
        c->present = true;
    }
    /* thighs: hip joint to knee */
    for (int s = 0; s < 2; s++) {
        const pm_rig_leg *leg = &rig->legs[s];
        c = &out[PM_RIG_CAPSULE_LEFT_THIGH + s];
        if (!leg->present) continue;
        c->radius = PM_RIG_THIGH_RADIUS * L;
        c->bone[0] = leg->hip, c->bone[1] = leg->knee;
        c->end[0] = rest(rig, leg->hip), c->end[1] = rest(rig, leg->knee);
        c->present = true;
    }
}

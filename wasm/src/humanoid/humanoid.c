/* Humanoid mapping: the 22 humanoid bones are roles of the rig resolver (procmotion/rig.h, THE
 * RESOLVER); this file only presents them in humanoid.h's shape. */
#include "procmotion/humanoid.h"
#include "procmotion/text.h"
#include "procmotion/rig.h"

#include "common/internal.h"

static const char *const bone_names[PM_HUMANOID_BONE_COUNT] = {
    "hips", "spine", "chest", "upperChest", "neck", "head",
    "leftShoulder", "leftUpperArm", "leftLowerArm", "leftHand",
    "rightShoulder", "rightUpperArm", "rightLowerArm", "rightHand",
    "leftUpperLeg", "leftLowerLeg", "leftFoot", "leftToes",
    "rightUpperLeg", "rightLowerLeg", "rightFoot", "rightToes"};

const char *pm_humanoid_bone_name(pm_humanoid_bone bone) {
    return (unsigned)bone < PM_HUMANOID_BONE_COUNT ? bone_names[bone] : NULL;
}

bool pm_humanoid_bone_required(pm_humanoid_bone b) {
    switch (b) {
    case PM_HUMANOID_HIPS: case PM_HUMANOID_SPINE: case PM_HUMANOID_NECK: case PM_HUMANOID_HEAD:
    case PM_HUMANOID_LEFT_UPPER_ARM: case PM_HUMANOID_LEFT_LOWER_ARM: case PM_HUMANOID_LEFT_HAND:
    case PM_HUMANOID_RIGHT_UPPER_ARM: case PM_HUMANOID_RIGHT_LOWER_ARM: case PM_HUMANOID_RIGHT_HAND:
    case PM_HUMANOID_LEFT_UPPER_LEG: case PM_HUMANOID_LEFT_LOWER_LEG: case PM_HUMANOID_LEFT_FOOT:
    case PM_HUMANOID_RIGHT_UPPER_LEG: case PM_HUMANOID_RIGHT_LOWER_LEG: case PM_HUMANOID_RIGHT_FOOT: return true;
    default: return false;
    }
}

const char *pm_humanoid_naming_name(pm_humanoid_naming n) { return pm_rig_naming_name((pm_rig_naming)n); }

static void from_roles(const pm_rig_roles *roles, pm_humanoid_map *out) {
    memset(out, 0, sizeof *out);
    out->total = PM_HUMANOID_BONE_COUNT;
    out->drivable = true;
    for (int h = 0; h < PM_HUMANOID_BONE_COUNT; h++) {
        pm_rig_role r = pm_rig_role_of_humanoid((pm_humanoid_bone)h);
        out->bone[h] = roles->bone[r];
        out->naming[h] = (pm_humanoid_naming)roles->naming[r];
        if (out->bone[h] != PM_NO_INDEX) out->mapped++;
        else if (pm_humanoid_bone_required((pm_humanoid_bone)h)) {
            out->missing_required[out->missing_required_count++] = (pm_humanoid_bone)h;
            out->drivable = false;
        }
    }
}

pm_result pm_humanoid_map_names(const char *const *names, uint32_t count, pm_humanoid_map *out, pm_error *err) {
    if (!out) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "humanoid: out is NULL");
    pm_rig_roles roles;
    pm_result r = pm_rig_resolve_names(names, NULL, count, NULL, &roles, err);
    from_roles(&roles, out);
    return r;
}

pm_result pm_humanoid_map_skeleton(const pm_skeleton *s, pm_humanoid_map *out, pm_error *err) {
    if (!out) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "humanoid: out is NULL");
    pm_rig_roles roles;
    pm_result r = pm_rig_resolve_skeleton(s, NULL, &roles, err);
    from_roles(&roles, out);
    return r;
}

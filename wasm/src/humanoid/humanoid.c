/* Humanoid mapping: the 22 humanoid bones are roles of the rig resolver (procmotion/rig.h, THE
 * RESOLVER); this file only presents them in humanoid.h's shape. */
#include "procmotion/humanoid.h"

#include "common/internal.h"

static void from_roles(const pm_rig_roles *roles, pm_humanoid_map *out) {
    memset(out, 0, sizeof *out);
    out->total = PM_HUMANOID_BONE_COUNT;
    out->drivable = true;
    for (int h = 0; h < PM_HUMANOID_BONE_COUNT; h++) {
        pm_rig_role r = pm_rig_role_of_humanoid((pm_humanoid_bone)h);
        out->bone[h] = roles->bone[r];
        out->naming[h] = roles->naming[r];
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

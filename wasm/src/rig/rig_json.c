/* The rig analysis as JSON: what `procmotion rig` prints and pm.analyzeRig returns (docs/models.md). */
#include "rig/rig_internal.h"

#include "common/json.h"

#include <math.h>

#define DEG (180.0 / PM_PI)

/* Numbers rounded to 1e-6 (the figures are float; more digits only show float noise). */
static double round6(double v) { return isfinite(v) ? round(v * 1e6) / 1e6 + 0.0 : 0.0; }

static void add_num(cJSON *o, const char *key, double v, bool *ok) { pmi_json_add_number(o, key, round6(v), ok); }

static void add_vec(cJSON *o, const char *key, pm_vec3 v, bool *ok) {
    cJSON *a = pmi_json_add_array(o, key, ok);
    pmi_json_add_number(a, NULL, round6(v.x), ok);
    pmi_json_add_number(a, NULL, round6(v.y), ok);
    pmi_json_add_number(a, NULL, round6(v.z), ok);
}

static void add_bone(cJSON *o, const char *key, const pm_skeleton *sk, uint32_t b, bool *ok) {
    if (b == PM_NO_INDEX || b >= sk->bone_count) pmi_json_add(o, key, cJSON_CreateNull(), ok);
    else pmi_json_add_string(o, key, sk->bones[b].name.data, ok);
}

static pm_rig_role role_of(const pm_rig_roles *roles, uint32_t b) {
    for (int r = 0; b != PM_NO_INDEX && r < PM_RIG_ROLE_COUNT; r++)
        if (roles->bone[r] == b) return (pm_rig_role)r;
    return PM_RIG_ROLE_NONE;
}

static void add_role(cJSON *o, const char *key, pm_rig_role r, bool *ok) {
    if (r == PM_RIG_ROLE_NONE) pmi_json_add(o, key, cJSON_CreateNull(), ok);
    else pmi_json_add_string(o, key, pm_rig_role_name(r), ok);
}

static void add_chain_index(cJSON *o, const char *key, const pm_rig *rig, uint32_t c, bool *ok) {
    add_bone(o, key, rig->skeleton, c == PM_NO_INDEX ? PM_NO_INDEX : rig->chains[c].ik_bone, ok);
}

static const char *side_name(int s) { return s == 1 ? "left" : s == 2 ? "right" : "none"; }

/* The semi-standard roles a generator keys (reported as missing when absent). */
static const pm_rig_role STANDARD[] = {
    PM_RIG_ROOT, PM_RIG_CENTER, PM_RIG_GROOVE, PM_RIG_WAIST, PM_RIG_LOWER_BODY, PM_RIG_UPPER_BODY, PM_RIG_UPPER_BODY2,
    PM_RIG_NECK, PM_RIG_HEAD, PM_RIG_LEFT_SHOULDER, PM_RIG_LEFT_ARM, PM_RIG_LEFT_ELBOW, PM_RIG_LEFT_WRIST,
    PM_RIG_LEFT_LEG, PM_RIG_LEFT_KNEE, PM_RIG_LEFT_ANKLE, PM_RIG_LEFT_TOE, PM_RIG_LEFT_LEG_IK, PM_RIG_LEFT_TOE_IK,
    PM_RIG_RIGHT_SHOULDER, PM_RIG_RIGHT_ARM, PM_RIG_RIGHT_ELBOW, PM_RIG_RIGHT_WRIST, PM_RIG_RIGHT_LEG,
    PM_RIG_RIGHT_KNEE, PM_RIG_RIGHT_ANKLE, PM_RIG_RIGHT_TOE, PM_RIG_RIGHT_LEG_IK, PM_RIG_RIGHT_TOE_IK};

static void add_roles(cJSON *root, const pm_rig *rig, bool *ok) {
    const pm_skeleton *sk = rig->skeleton;
    const pm_rig_roles *ro = &rig->roles;
    cJSON *roles = pmi_json_add_object(root, "roles", ok);
    cJSON *namings = pmi_json_add_object(root, "roleNamings", ok);
    for (int r = 0; r < PM_RIG_ROLE_COUNT; r++) {
        if (ro->bone[r] == PM_NO_INDEX) continue;
        add_bone(roles, pm_rig_role_name((pm_rig_role)r), sk, ro->bone[r], ok);
        char buf[48];
        pmi_format(buf, sizeof buf, "%s%s", pm_rig_naming_name((pm_rig_naming)ro->naming[r]),
                   ro->from_english[r] ? " (English name)" : "");
        pmi_json_add_string(namings, pm_rig_role_name((pm_rig_role)r), buf, ok);
    }
    cJSON *missing = pmi_json_add_array(root, "missing", ok);
    for (size_t i = 0; i < sizeof STANDARD / sizeof STANDARD[0]; i++)
        if (ro->bone[STANDARD[i]] == PM_NO_INDEX) pmi_json_add_string(missing, NULL, pm_rig_role_name(STANDARD[i]), ok);
    cJSON *hum = pmi_json_add_object(root, "humanoid", ok);
    for (int h = 0; h < PM_HUMANOID_BONE_COUNT; h++)
        add_bone(hum, pm_humanoid_bone_name((pm_humanoid_bone)h), sk, ro->bone[pm_rig_role_of_humanoid((pm_humanoid_bone)h)], ok);
}

static void add_chains(cJSON *root, const pm_rig *rig, bool *ok) {
    const pm_skeleton *sk = rig->skeleton;
    cJSON *chains = pmi_json_add_array(root, "chains", ok);
    for (uint32_t i = 0; i < rig->chain_count && *ok; i++) {
        const pm_rig_chain *c = &rig->chains[i];
        cJSON *o = pmi_json_add_object(chains, NULL, ok);
        add_bone(o, "ik", sk, c->ik_bone, ok);
        add_role(o, "ikRole", role_of(&rig->roles, c->ik_bone), ok);
        add_bone(o, "target", sk, c->target, ok);
        add_role(o, "targetRole", role_of(&rig->roles, c->target), ok);
        pmi_json_add_string(o, "kind", pm_rig_chain_kind_name(c->kind), ok);
        pmi_json_add_string(o, "side", side_name(c->side), ok);
        pmi_json_add_number(o, "loopCount", c->loop_count, ok);
        add_num(o, "limitAngle", c->limit_angle, ok);
        cJSON *links = pmi_json_add_array(o, "links", ok);
        for (uint32_t k = 0; k < c->link_count; k++) {
            cJSON *lk = pmi_json_add_object(links, NULL, ok);
            add_bone(lk, "bone", sk, c->links[k].bone, ok);
            add_role(lk, "role", role_of(&rig->roles, c->links[k].bone), ok);
            if (c->links[k].has_limit) {
                add_vec(lk, "limitMin", c->links[k].limit_min, ok);
                add_vec(lk, "limitMax", c->links[k].limit_max, ok);
            }
        }
        add_bone(o, "parent", sk, c->parent, ok);
        add_role(o, "parentRole", c->parent_role, ok);
        cJSON *parents = pmi_json_add_array(o, "parents", ok);
        uint32_t p = c->parent;
        for (uint32_t steps = 0; p != PM_NO_INDEX && steps <= sk->bone_count; steps++, p = sk->bones[p].parent)
            pmi_json_add_string(parents, NULL, sk->bones[p].name.data, ok);
        if (c->target != PM_NO_INDEX) {
            add_vec(o, "restOffset", c->rest_offset, ok);
            add_num(o, "restDistance", c->rest_distance, ok);
            add_num(o, "restError", c->rest_error, ok);
            add_num(o, "restShift", c->rest_shift, ok);
        }
    }
}

static void add_legs(cJSON *root, const pm_rig *rig, bool *ok) {
    const pm_skeleton *sk = rig->skeleton;
    cJSON *legs = pmi_json_add_object(root, "legs", ok);
    for (int s = 0; s < 2; s++) {
        const pm_rig_leg *l = &rig->legs[s];
        if (!l->present) {
            pmi_json_add(legs, side_name(s + 1), cJSON_CreateNull(), ok);
            continue;
        }
        cJSON *o = pmi_json_add(legs, side_name(s + 1), cJSON_CreateObject(), ok);
        add_bone(o, "hip", sk, l->hip, ok);
        add_bone(o, "knee", sk, l->knee, ok);
        add_bone(o, "ankle", sk, l->ankle, ok);
        add_bone(o, "toe", sk, l->toe, ok);
        add_bone(o, "heel", sk, l->heel, ok);
        add_chain_index(o, "ik", rig, l->ik_chain, ok);
        add_chain_index(o, "toeIk", rig, l->toe_chain, ok);
        add_chain_index(o, "dIk", rig, l->d_chain, ok);
        add_num(o, "thigh", l->thigh, ok);
        add_num(o, "shin", l->shin, ok);
        add_num(o, "length", l->length, ok);
        cJSON *knee = pmi_json_add_object(o, "kneeJoint", ok); /* "knee" is the bone's name */
        add_num(knee, "restBendDeg", l->knee_rest_bend * DEG, ok);
        pmi_json_add_bool(knee, "limited", l->knee_limited, ok);
        if (l->knee_limited) {
            add_vec(knee, "limitMin", l->knee_limit_min, ok);
            add_vec(knee, "limitMax", l->knee_limit_max, ok);
            add_num(knee, "bendMinDeg", l->knee_bend_min * DEG, ok);
            add_num(knee, "bendMaxDeg", l->knee_bend_max * DEG, ok);
        }
        cJSON *reach = pmi_json_add_object(o, "reach", ok);
        add_num(reach, "rest", l->reach_rest, ok);
        if (l->ik_chain != PM_NO_INDEX) {
            add_num(reach, "min", l->reach_min, ok);
            add_num(reach, "max", l->reach_max, ok);
            add_vec(o, "ikOffset", rig->chains[l->ik_chain].rest_offset, ok);
        }
        add_num(o, "footLength", l->foot_length, ok);
        add_num(o, "ankleHeight", l->ankle_height, ok);
    }
}

static void add_arms(cJSON *root, const pm_rig *rig, bool *ok) {
    const pm_skeleton *sk = rig->skeleton;
    cJSON *arms = pmi_json_add_object(root, "arms", ok);
    for (int s = 0; s < 2; s++) {
        const pm_rig_arm *m = &rig->arms[s];
        if (!m->present) {
            pmi_json_add(arms, side_name(s + 1), cJSON_CreateNull(), ok);
            continue;
        }
        cJSON *o = pmi_json_add(arms, side_name(s + 1), cJSON_CreateObject(), ok);
        add_bone(o, "shoulder", sk, m->shoulder, ok);
        add_bone(o, "arm", sk, m->arm, ok);
        add_bone(o, "elbow", sk, m->elbow, ok);
        add_bone(o, "wrist", sk, m->wrist, ok);
        add_chain_index(o, "ik", rig, m->ik_chain, ok);
        add_num(o, "upper", m->upper, ok);
        add_num(o, "fore", m->fore, ok);
        add_num(o, "length", m->length, ok);
        add_num(o, "elbowRestBendDeg", m->elbow_rest_bend * DEG, ok);
    }
}

pm_result pm_rig_to_json(const pm_rig *rig, char *out, size_t out_cap, size_t *out_size, pm_error *err) {
    if (!rig || rig->magic != PMI_RIG_MAGIC || !out_size)
        return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "rig: pm_rig_to_json needs a rig and out_size");
    bool ok = true;
    cJSON *root = cJSON_CreateObject();
    ok = root != NULL;
    pmi_json_add_number(root, "boneCount", rig->skeleton->bone_count, &ok);
    pmi_json_add_string(root, "naming", pm_rig_naming_name(rig->roles.primary), &ok);
    pmi_json_add_bool(root, "cmuSignature", rig->roles.cmu_signature, &ok);
    add_roles(root, rig, &ok);
    add_chains(root, rig, &ok);
    add_legs(root, rig, &ok);
    add_arms(root, rig, &ok);
    add_num(root, "floorHeight", rig->floor_height, &ok);
    add_num(root, "hipHeight", rig->hip_height, &ok);
    add_num(root, "legLength", rig->leg_length, &ok);
    add_num(root, "footLength", rig->foot_length, &ok);
    add_num(root, "scale", rig->scale, &ok);
    return pmi_json_print(root, ok, out, out_cap, out_size, "rig", err);
}

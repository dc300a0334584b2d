/* Source joint names -> humanoid slots, per naming family (see "JOINT NAMES" in keypoints.h). The names are
 * read by the rig resolver (procmotion/rig.h): each family is one of its naming tables on its own, and
 * "humanoid.h" is the resolver with every table (the primary table and the fill). */
#include "kp_internal.h"
#include "procmotion/humanoid.h"
#include "procmotion/rig.h"

typedef struct family {
    const char *name;
    pm_rig_naming naming; /* NONE: every table (the resolver's choice) */
} family;

/* In the order tried; a later family must map more core joints to win. */
static const family families[] = {{"mmd", PM_RIG_NAMING_MMD},       {"cmu", PM_RIG_NAMING_CMU},
                                  {"mixamo", PM_RIG_NAMING_MIXAMO}, {"daz", PM_RIG_NAMING_DAZ},
                                  {"biped", PM_RIG_NAMING_BIPED},   {"humanoid", PM_RIG_NAMING_VROID},
                                  {"humanoid.h", PM_RIG_NAMING_NONE}};
#define FAMILY_COUNT (sizeof families / sizeof families[0])

/* Slot -> roles, the first present wins (the thumb point rides on the most distal thumb bone the
 * table knows, the toe on つま先 before 足先EX). */
static const struct {
    uint8_t slot;
    pm_rig_role roles[3];
    uint8_t n;
} SLOTS[] = {
    {PMI_SLOT_HIPS, {PM_RIG_LOWER_BODY}, 1},
    {PMI_SLOT_SPINE, {PM_RIG_UPPER_BODY}, 1},
    {PMI_SLOT_CHEST, {PM_RIG_UPPER_BODY2, PM_RIG_UPPER_BODY3}, 2},
    {PMI_SLOT_NECK, {PM_RIG_NECK}, 1},
    {PMI_SLOT_HEAD, {PM_RIG_HEAD}, 1},
};
static const struct {
    uint8_t side_slot;
    pm_rig_role roles[3]; /* left roles */
    uint8_t n;
} SIDE_SLOTS[] = {
    {PMI_SIDE_SHOULDER, {PM_RIG_LEFT_SHOULDER}, 1},
    {PMI_SIDE_UPPER_ARM, {PM_RIG_LEFT_ARM}, 1},
    {PMI_SIDE_LOWER_ARM, {PM_RIG_LEFT_ELBOW}, 1},
    {PMI_SIDE_HAND, {PM_RIG_LEFT_WRIST}, 1},
    {PMI_SIDE_UPPER_LEG, {PM_RIG_LEFT_LEG}, 1},
    {PMI_SIDE_LOWER_LEG, {PM_RIG_LEFT_KNEE}, 1},
    {PMI_SIDE_FOOT, {PM_RIG_LEFT_ANKLE}, 1},
    {PMI_SIDE_TOES, {PM_RIG_LEFT_TOE, PM_RIG_LEFT_TOE_EX}, 2},
    {PMI_SIDE_EYE, {PM_RIG_LEFT_EYE}, 1},
    {PMI_SIDE_THUMB, {PM_RIG_LEFT_THUMB2, PM_RIG_LEFT_THUMB1, PM_RIG_LEFT_THUMB0}, 3},
    {PMI_SIDE_INDEX, {PM_RIG_LEFT_INDEX1}, 1},
    {PMI_SIDE_LITTLE, {PM_RIG_LEFT_LITTLE1}, 1},
};

static void slots_of(const pm_rig_roles *roles, uint32_t *slots) {
    for (int k = 0; k < PMI_SLOT_COUNT; k++) slots[k] = PM_NO_INDEX;
    for (size_t i = 0; i < sizeof SLOTS / sizeof SLOTS[0]; i++)
        for (int k = 0; k < SLOTS[i].n && slots[SLOTS[i].slot] == PM_NO_INDEX; k++)
            slots[SLOTS[i].slot] = roles->bone[SLOTS[i].roles[k]];
    for (size_t i = 0; i < sizeof SIDE_SLOTS / sizeof SIDE_SLOTS[0]; i++)
        for (int side = 0; side < 2; side++) {
            uint32_t slot = side ? PMI_SLOT_RIGHT(SIDE_SLOTS[i].side_slot) : PMI_SLOT_LEFT(SIDE_SLOTS[i].side_slot);
            for (int k = 0; k < SIDE_SLOTS[i].n && slots[slot] == PM_NO_INDEX; k++)
                slots[slot] = roles->bone[PM_RIG_SIDED(SIDE_SLOTS[i].roles[k], side)];
        }
}

static pm_rig_resolve_options options_of(const family *f) {
    pm_rig_resolve_options o = {f->naming == PM_RIG_NAMING_NONE ? 0 : PM_RIG_NAMING_BIT(f->naming)};
    return o;
}

uint32_t pmi_kp_name_slot(const char *family_name, const char *name) {
    for (size_t f = 0; f < FAMILY_COUNT; f++) {
        if (strcmp(families[f].name, family_name) != 0) continue;
        pm_rig_resolve_options o = options_of(&families[f]);
        pm_rig_roles roles;
        const char *one[1] = {name};
        if (pm_rig_resolve_names(one, NULL, 1, &o, &roles, NULL) != PM_OK) return PM_NO_INDEX;
        uint32_t slots[PMI_SLOT_COUNT];
        slots_of(&roles, slots);
        for (int k = 0; k < PMI_SLOT_COUNT; k++)
            if (slots[k] == 0) return (uint32_t)k;
        return PM_NO_INDEX;
    }
    return PM_NO_INDEX;
}

static const uint8_t core_sides[] = {PMI_SIDE_UPPER_ARM, PMI_SIDE_LOWER_ARM, PMI_SIDE_HAND,
                                     PMI_SIDE_UPPER_LEG, PMI_SIDE_LOWER_LEG, PMI_SIDE_FOOT};

static int score(const uint32_t *slots) {
    int n = slots[PMI_SLOT_HEAD] != PM_NO_INDEX;
    for (size_t k = 0; k < sizeof core_sides; k++)
        n += (slots[PMI_SLOT_LEFT(core_sides[k])] != PM_NO_INDEX) + (slots[PMI_SLOT_RIGHT(core_sides[k])] != PM_NO_INDEX);
    /* the four joints a plan needs weigh more than the rest together */
    int need = (slots[PMI_SLOT_LEFT(PMI_SIDE_UPPER_ARM)] != PM_NO_INDEX) + (slots[PMI_SLOT_RIGHT(PMI_SIDE_UPPER_ARM)] != PM_NO_INDEX) +
               (slots[PMI_SLOT_LEFT(PMI_SIDE_UPPER_LEG)] != PM_NO_INDEX) + (slots[PMI_SLOT_RIGHT(PMI_SIDE_UPPER_LEG)] != PM_NO_INDEX);
    return need * 100 + n;
}

pm_result pmi_kp_map_names(pmi_kp_rig *rig, const pm_allocator *allocator, pm_error *err) {
    const char **names = pmi_alloc_array(allocator, rig->joint_count, sizeof *names, err, "keypoints: joint names");
    if (!names) return PM_ERR_OUT_OF_MEMORY;
    for (uint32_t j = 0; j < rig->joint_count; j++) names[j] = rig->candidate && !rig->candidate[j] ? "" : rig->names[j].data;
    int best = -1;
    pm_result r = PM_OK;
    for (size_t f = 0; f < FAMILY_COUNT && r == PM_OK; f++) {
        pm_rig_resolve_options o = options_of(&families[f]);
        pm_rig_roles roles;
        if ((r = pm_rig_resolve_names(names, NULL, rig->joint_count, &o, &roles, err)) != PM_OK) break;
        uint32_t slots[PMI_SLOT_COUNT];
        slots_of(&roles, slots);
        int sc = score(slots);
        if (sc > best) {
            best = sc;
            memcpy(rig->slots, slots, sizeof slots);
            rig->family = families[f].name;
        }
    }
    pmi_free(allocator, names);
    if (r) return r;
    if (best < 400 && rig->parent && rig->rest && rig->candidate) { /* names that say nothing: the hierarchy and the rest pose */
        pm_rig_roles roles;
        double confidence = 0;
        if (pm_humanoid_infer_roles(rig->parent, rig->rest, rig->candidate, rig->joint_count, allocator, &roles, &confidence, NULL) == PM_OK &&
            confidence >= 0.5) {
            slots_of(&roles, rig->slots);
            rig->family = "inferred";
            best = score(rig->slots);
        }
    }
    if (best < 400)
        return pmi_fail(err, PM_ERR_NOT_FOUND,
                        "keypoints: no known joint naming (MMD, CMU, Mixamo, Daz, Biped, humanoid, the rig resolver's "
                        "tables together) finds both hips and both upper arms among the %u joints, nor does their hierarchy",
                        rig->joint_count);
    return PM_OK;
}

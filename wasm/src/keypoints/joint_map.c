/* Source joint names -> humanoid slots, per naming family (see "JOINT NAMES" in keypoints.h). */
#include "kp_internal.h"
#include "procmotion/humanoid.h"

enum { CENTER = 0, SIDED = 1 };
enum { SIDE_NONE = 0, SIDE_L, SIDE_R };

typedef struct entry {
    const char *base; /* normalised name without the side */
    uint8_t kind;     /* CENTER or SIDED */
    uint8_t slot;     /* PMI_SLOT_* for CENTER, PMI_SIDE_* for SIDED */
    uint8_t rank;     /* lower wins when several joints fill one slot */
} entry;

#define C(name, slot, rank) {name, CENTER, PMI_SLOT_##slot, rank}
#define S(name, slot, rank) {name, SIDED, PMI_SIDE_##slot, rank}

/* MMD (semi-)standard bones; the side comes from 左/右; full-width digits are folded (親指２ -> 親指2). */
static const entry mmd[] = {
    C("下半身", HIPS, 0), C("上半身", SPINE, 0), C("上半身2", CHEST, 0), C("首", NECK, 0), C("頭", HEAD, 0),
    S("肩", SHOULDER, 0), S("腕", UPPER_ARM, 0), S("ひじ", LOWER_ARM, 0), S("肘", LOWER_ARM, 1),
    S("手首", HAND, 0), S("足", UPPER_LEG, 0), S("ひざ", LOWER_LEG, 0), S("膝", LOWER_LEG, 1),
    S("足首", FOOT, 0), S("つま先", TOES, 0), S("足先ex", TOES, 1), S("目", EYE, 0),
    S("親指2", THUMB, 0), S("親指1", THUMB, 1), S("人指1", INDEX, 0), S("人差指1", INDEX, 1), S("小指1", LITTLE, 0),
};

/* CMU: the bvh11 / cmuconvert names (LeftShoulder is the upper arm) and the ASF names (lhumerus ...). */
static const entry cmu[] = {
    C("hips", HIPS, 0), C("root", HIPS, 1), C("lowerback", SPINE, 1), C("chest", SPINE, 0), C("upperback", SPINE, 2),
    C("chest2", CHEST, 0), C("thorax", CHEST, 1), C("neck", NECK, 0), C("lowerneck", NECK, 1), C("head", HEAD, 0),
    S("collar", SHOULDER, 0), S("clavicle", SHOULDER, 1), S("shoulder", UPPER_ARM, 0), S("humerus", UPPER_ARM, 1),
    S("elbow", LOWER_ARM, 0), S("radius", LOWER_ARM, 1), S("wrist", HAND, 0), S("hip", UPPER_LEG, 0),
    S("femur", UPPER_LEG, 1), S("knee", LOWER_LEG, 0), S("tibia", LOWER_LEG, 1), S("ankle", FOOT, 0),
    S("foot", FOOT, 1), S("toe", TOES, 0), S("toes", TOES, 1), S("thumb", THUMB, 0),
};

/* Mixamo, MotionBuilder and the cgspeed CMU conversion (LeftShoulder is the clavicle). */
static const entry mixamo[] = {
    C("hips", HIPS, 0), C("spine", SPINE, 0), C("spine1", CHEST, 0), C("spine2", CHEST, 1), C("neck", NECK, 0),
    C("head", HEAD, 0), S("shoulder", SHOULDER, 0), S("arm", UPPER_ARM, 0), S("forearm", LOWER_ARM, 0),
    S("hand", HAND, 0), S("upleg", UPPER_LEG, 0), S("leg", LOWER_LEG, 0), S("foot", FOOT, 0), S("toebase", TOES, 0),
    S("eye", EYE, 0), S("handthumb2", THUMB, 0), S("handthumb1", THUMB, 1), S("thumb", THUMB, 2),
    S("handindex1", INDEX, 0), S("handpinky1", LITTLE, 0),
};

/* Daz / Poser (lShldr, lForeArm, lThigh, lShin; Genesis "Bend" bones). */
static const entry daz[] = {
    C("hip", HIPS, 0), C("pelvis", HIPS, 1), C("abdomen", SPINE, 0), C("abdomenlower", SPINE, 1), C("chest", CHEST, 0),
    C("chestupper", CHEST, 1), C("neck", NECK, 0), C("necklower", NECK, 1), C("head", HEAD, 0),
    S("collar", SHOULDER, 0), S("shldr", UPPER_ARM, 0), S("shldrbend", UPPER_ARM, 1), S("forearm", LOWER_ARM, 0),
    S("forearmbend", LOWER_ARM, 1), S("hand", HAND, 0), S("thigh", UPPER_LEG, 0), S("thighbend", UPPER_LEG, 1),
    S("shin", LOWER_LEG, 0), S("foot", FOOT, 0), S("toe", TOES, 0), S("eye", EYE, 0), S("thumb2", THUMB, 0),
    S("index1", INDEX, 0), S("pinky1", LITTLE, 0),
};

/* 3ds Max Biped ("Bip01 L Thigh"; the Bip01 prefix is dropped before matching). */
static const entry biped[] = {
    C("pelvis", HIPS, 0), C("spine", SPINE, 0), C("spine1", CHEST, 0), C("neck", NECK, 0), C("head", HEAD, 0),
    S("clavicle", SHOULDER, 0), S("upperarm", UPPER_ARM, 0), S("forearm", LOWER_ARM, 0), S("hand", HAND, 0),
    S("thigh", UPPER_LEG, 0), S("calf", LOWER_LEG, 0), S("foot", FOOT, 0), S("toe0", TOES, 0),
    S("finger0", THUMB, 1), S("finger01", THUMB, 0), S("finger1", INDEX, 0), S("finger4", LITTLE, 0),
};

/* Humanoid names: VRM / Unity humanoid bone names, VRoid (J_Bip_L_UpperArm), Blender (upper_arm.L,
 * forearm.L, thigh.L, shin.L) and glTF exports of them (RobotExpressive: UpperArm.L, LowerLeg.R). */
static const entry humanoid[] = {
    C("hips", HIPS, 0), C("spine", SPINE, 0), C("abdomen", SPINE, 1), C("chest", CHEST, 0),
    C("upperchest", CHEST, 1), C("torso", CHEST, 2), C("neck", NECK, 0), C("head", HEAD, 0),
    S("shoulder", SHOULDER, 0), S("upperarm", UPPER_ARM, 0), S("lowerarm", LOWER_ARM, 0), S("forearm", LOWER_ARM, 1),
    S("hand", HAND, 0), S("upperleg", UPPER_LEG, 0), S("thigh", UPPER_LEG, 1), S("lowerleg", LOWER_LEG, 0),
    S("shin", LOWER_LEG, 1), S("calf", LOWER_LEG, 2), S("foot", FOOT, 0), S("toes", TOES, 0), S("toebase", TOES, 1),
    S("toe", TOES, 2), S("eye", EYE, 0), S("thumbdistal", THUMB, 0), S("thumbintermediate", THUMB, 1),
    S("thumb2", THUMB, 2), S("thumbproximal", THUMB, 3), S("thumb", THUMB, 4), S("indexproximal", INDEX, 0),
    S("index1", INDEX, 1), S("index", INDEX, 2), S("littleproximal", LITTLE, 0), S("little1", LITTLE, 1),
    S("pinky1", LITTLE, 2), S("little", LITTLE, 3), S("pinky", LITTLE, 4),
};

#undef C
#undef S

typedef struct family {
    const char *name;
    const entry *entries;
    size_t count;
} family;

#define FAMILY(n) {#n, n, sizeof n / sizeof n[0]}
static const family families[] = {FAMILY(mmd), FAMILY(cmu), FAMILY(mixamo), FAMILY(daz), FAMILY(biped), FAMILY(humanoid)};
#undef FAMILY

#define NAME_MAX_BYTES 128

typedef struct normalized {
    char s[NAME_MAX_BYTES];
    size_t n;
    int suffix_side; /* from ".L" / "_R" / " l" at the end of the raw name */
} normalized;

static bool is_alnum(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'); }

static void push(normalized *o, char c) {
    if (o->n + 1 < sizeof o->s) o->s[o->n++] = c;
}

static void push_ascii(normalized *o, char c) {
    if (!is_alnum(c)) return;
    push(o, (c >= 'A' && c <= 'Z') ? (char)(c - 'A' + 'a') : c);
}

static bool starts(const normalized *o, size_t at, const char *p) {
    size_t n = strlen(p);
    return o->n >= at + n && memcmp(o->s + at, p, n) == 0;
}

/* Lower case ASCII letters and digits, full-width ASCII folded, other non-ASCII bytes (CJK, kana) kept,
 * namespace ("a:b", "a|b"), side suffix and the prefixes mixamorig, J_Bip, Bip01 dropped. */
static void normalize(const char *raw, size_t len, normalized *o) {
    memset(o, 0, sizeof *o);
    size_t start = 0;
    for (size_t i = 0; i < len; i++)
        if (raw[i] == ':' || raw[i] == '|') start = i + 1;
    size_t end = len;
    if (end >= start + 3) {
        char sep = raw[end - 2], side = raw[end - 1];
        if ((sep == '.' || sep == '_' || sep == ' ' || sep == '-') && (side == 'L' || side == 'l' || side == 'R' || side == 'r')) {
            o->suffix_side = (side == 'L' || side == 'l') ? SIDE_L : SIDE_R;
            end -= 2;
        }
    }
    const uint8_t *p = (const uint8_t *)raw;
    for (size_t i = start; i < end;) {
        uint8_t c = p[i];
        if (c < 0x80) {
            push_ascii(o, (char)c);
            i++;
        } else if (c == 0xEF && i + 2 < end && (p[i + 1] == 0xBC || p[i + 1] == 0xBD)) {
            /* U+FF01..U+FF5E: full-width ASCII */
            unsigned cp = 0xF000u | ((unsigned)(p[i + 1] & 0x3F) << 6) | (p[i + 2] & 0x3Fu);
            if (cp >= 0xFF01 && cp <= 0xFF5E) push_ascii(o, (char)(cp - 0xFF01 + 0x21));
            else push(o, (char)p[i]), push(o, (char)p[i + 1]), push(o, (char)p[i + 2]);
            i += 3;
        } else {
            push(o, (char)c);
            i++;
        }
    }
    static const char *const prefixes[] = {"mixamorig", "jbip", "bip001", "bip01"};
    for (size_t k = 0; k < sizeof prefixes / sizeof prefixes[0]; k++) {
        if (!starts(o, 0, prefixes[k])) continue;
        size_t cut = strlen(prefixes[k]);
        if (k == 0 && cut < o->n && o->s[cut] >= '0' && o->s[cut] <= '9') cut++; /* mixamorig1 */
        if (cut < o->n) {
            memmove(o->s, o->s + cut, o->n - cut);
            o->n -= cut;
        }
        break;
    }
    o->s[o->n] = '\0';
}

/* Look `base` up in a family; returns the slot or PM_NO_INDEX, and the rank. */
static uint32_t lookup(const family *fam, int side, const char *base, size_t n, uint8_t *rank) {
    for (size_t i = 0; i < fam->count; i++) {
        const entry *e = &fam->entries[i];
        if (strlen(e->base) != n || memcmp(e->base, base, n) != 0) continue;
        if (e->kind == CENTER && side != SIDE_NONE) continue;
        if (e->kind == SIDED && side == SIDE_NONE) continue;
        *rank = e->rank;
        if (e->kind == CENTER) return e->slot;
        return side == SIDE_L ? PMI_SLOT_LEFT(e->slot) : PMI_SLOT_RIGHT(e->slot);
    }
    return PM_NO_INDEX;
}

/* The slot of a name in a family: tries the name as it is, then with the side taken from a suffix, a
 * left/right or 左/右 prefix, a one-letter l/r prefix, and a VRoid "c" (centre) prefix. */
static uint32_t match(const family *fam, const char *raw, size_t len, uint8_t *rank) {
    normalized o;
    normalize(raw, len, &o);
    if (!o.n) return PM_NO_INDEX;
    uint32_t s;
    if (o.suffix_side) return lookup(fam, o.suffix_side, o.s, o.n, rank);
    if ((s = lookup(fam, SIDE_NONE, o.s, o.n, rank)) != PM_NO_INDEX) return s;
    if (starts(&o, 0, "left") && (s = lookup(fam, SIDE_L, o.s + 4, o.n - 4, rank)) != PM_NO_INDEX) return s;
    if (starts(&o, 0, "right") && (s = lookup(fam, SIDE_R, o.s + 5, o.n - 5, rank)) != PM_NO_INDEX) return s;
    if (starts(&o, 0, "\xE5\xB7\xA6") && (s = lookup(fam, SIDE_L, o.s + 3, o.n - 3, rank)) != PM_NO_INDEX) return s; /* 左 */
    if (starts(&o, 0, "\xE5\x8F\xB3") && (s = lookup(fam, SIDE_R, o.s + 3, o.n - 3, rank)) != PM_NO_INDEX) return s; /* 右 */
    if (o.n > 1 && o.s[0] == 'l' && (s = lookup(fam, SIDE_L, o.s + 1, o.n - 1, rank)) != PM_NO_INDEX) return s;
    if (o.n > 1 && o.s[0] == 'r' && (s = lookup(fam, SIDE_R, o.s + 1, o.n - 1, rank)) != PM_NO_INDEX) return s;
    if (o.n > 1 && o.s[0] == 'c' && (s = lookup(fam, SIDE_NONE, o.s + 1, o.n - 1, rank)) != PM_NO_INDEX) return s;
    return PM_NO_INDEX;
}

uint32_t pmi_kp_name_slot(const char *family_name, const char *name) {
    for (size_t f = 0; f < sizeof families / sizeof families[0]; f++) {
        if (strcmp(families[f].name, family_name) != 0) continue;
        uint8_t rank;
        return match(&families[f], name, strlen(name), &rank);
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

/* The humanoid mapper (humanoid.h: VRoid, Mixamo, MMD, Chinese and Biped names for the 22 bones) as one
 * more family; eyes and fingers, which it does not cover, come from the humanoid table. */
static pm_result humanoid_mapper(const pmi_kp_rig *rig, uint32_t *slots, pm_error *err) {
    static const struct {
        pm_humanoid_bone bone;
        int slot;
    } to_slot[] = {
        {PM_HUMANOID_HIPS, PMI_SLOT_HIPS},
        {PM_HUMANOID_SPINE, PMI_SLOT_SPINE},
        {PM_HUMANOID_CHEST, PMI_SLOT_CHEST},
        {PM_HUMANOID_NECK, PMI_SLOT_NECK},
        {PM_HUMANOID_HEAD, PMI_SLOT_HEAD},
        {PM_HUMANOID_LEFT_SHOULDER, PMI_SLOT_LEFT(PMI_SIDE_SHOULDER)},
        {PM_HUMANOID_LEFT_UPPER_ARM, PMI_SLOT_LEFT(PMI_SIDE_UPPER_ARM)},
        {PM_HUMANOID_LEFT_LOWER_ARM, PMI_SLOT_LEFT(PMI_SIDE_LOWER_ARM)},
        {PM_HUMANOID_LEFT_HAND, PMI_SLOT_LEFT(PMI_SIDE_HAND)},
        {PM_HUMANOID_LEFT_UPPER_LEG, PMI_SLOT_LEFT(PMI_SIDE_UPPER_LEG)},
        {PM_HUMANOID_LEFT_LOWER_LEG, PMI_SLOT_LEFT(PMI_SIDE_LOWER_LEG)},
        {PM_HUMANOID_LEFT_FOOT, PMI_SLOT_LEFT(PMI_SIDE_FOOT)},
        {PM_HUMANOID_LEFT_TOES, PMI_SLOT_LEFT(PMI_SIDE_TOES)},
        {PM_HUMANOID_RIGHT_SHOULDER, PMI_SLOT_RIGHT(PMI_SIDE_SHOULDER)},
        {PM_HUMANOID_RIGHT_UPPER_ARM, PMI_SLOT_RIGHT(PMI_SIDE_UPPER_ARM)},
        {PM_HUMANOID_RIGHT_LOWER_ARM, PMI_SLOT_RIGHT(PMI_SIDE_LOWER_ARM)},
        {PM_HUMANOID_RIGHT_HAND, PMI_SLOT_RIGHT(PMI_SIDE_HAND)},
        {PM_HUMANOID_RIGHT_UPPER_LEG, PMI_SLOT_RIGHT(PMI_SIDE_UPPER_LEG)},
        {PM_HUMANOID_RIGHT_LOWER_LEG, PMI_SLOT_RIGHT(PMI_SIDE_LOWER_LEG)},
        {PM_HUMANOID_RIGHT_FOOT, PMI_SLOT_RIGHT(PMI_SIDE_FOOT)},
        {PM_HUMANOID_RIGHT_TOES, PMI_SLOT_RIGHT(PMI_SIDE_TOES)},
    };
    const char **names = pmi_alloc_array(NULL, rig->joint_count, sizeof *names, err, "keypoints: joint names");
    if (!names) return PM_ERR_OUT_OF_MEMORY;
    for (uint32_t j = 0; j < rig->joint_count; j++) names[j] = rig->candidate && !rig->candidate[j] ? "" : rig->names[j].data;
    pm_humanoid_map map;
    pm_result r = pm_humanoid_map_names(names, rig->joint_count, &map, err);
    pmi_free(NULL, names);
    if (r) return r;
    for (size_t k = 0; k < sizeof to_slot / sizeof to_slot[0]; k++) slots[to_slot[k].slot] = map.bone[to_slot[k].bone];
    return PM_OK;
}

pm_result pmi_kp_map_names(pmi_kp_rig *rig, pm_error *err) {
    int best = -1;
    const size_t nf = sizeof families / sizeof families[0];
    for (size_t f = 0; f <= nf; f++) {
        /* the families' own tables, then the humanoid mapper (with the humanoid table's eyes and fingers) */
        const family *fam = &families[f < nf ? f : nf - 1];
        uint32_t slots[PMI_SLOT_COUNT];
        uint8_t ranks[PMI_SLOT_COUNT];
        for (int k = 0; k < PMI_SLOT_COUNT; k++) slots[k] = PM_NO_INDEX, ranks[k] = 255;
        for (uint32_t j = 0; j < rig->joint_count; j++) {
            if (rig->candidate && !rig->candidate[j]) continue;
            uint8_t rank = 255;
            uint32_t s = match(fam, rig->names[j].data, rig->names[j].length, &rank);
            if (s == PM_NO_INDEX || rank >= ranks[s]) continue;
            slots[s] = j;
            ranks[s] = rank;
        }
        if (f == nf) {
            pm_result r = humanoid_mapper(rig, slots, err);
            if (r) return r;
        }
        int sc = score(slots);
        if (sc > best) {
            best = sc;
            memcpy(rig->slots, slots, sizeof slots);
            rig->family = f < nf ? fam->name : "humanoid.h";
        }
    }
    if (best < 400)
        return pmi_fail(err, PM_ERR_NOT_FOUND,
                        "keypoints: no known joint naming (MMD, CMU, Mixamo, Daz, Biped, humanoid, the humanoid mapper's "
                        "VRoid/Mixamo/MMD/Chinese/Biped tables) finds both hips and both upper arms among the %u joints",
                        rig->joint_count);
    return PM_OK;
}

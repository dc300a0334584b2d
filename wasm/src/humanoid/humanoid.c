/* Humanoid mapping: normalise, strip prefixes, side variants, exact match against candidate tables
 * (see procmotion/humanoid.h and seed 003 §6). */
#include "procmotion/humanoid.h"
#include "procmotion/text.h"

#include "common/internal.h"
#include "humanoid/humanoid_internal.h"
#include "skeleton/utf.h"

/* ---- tables ----------------------------------------------------------------------------------- */

typedef struct candidate {
    pm_humanoid_naming naming;
    pm_humanoid_bone bone; /* the left bone for sided entries; the right one is derived */
    const char *name;      /* normalised */
} candidate;

#define H(b) PM_HUMANOID_##b
#define VROID PM_HUMANOID_NAMING_VROID
#define MIXAMO PM_HUMANOID_NAMING_MIXAMO
#define MMD PM_HUMANOID_NAMING_MMD
#define CHINESE PM_HUMANOID_NAMING_CHINESE
#define BIPED PM_HUMANOID_NAMING_BIPED
#define CMU PM_HUMANOID_NAMING_CMU

/* In priority order: table by table, and inside a table the preferred candidate first. */
static const candidate candidates[] = {
    {VROID, H(HIPS), "hips"}, {VROID, H(SPINE), "spine"}, {VROID, H(CHEST), "chest"},
    {VROID, H(UPPER_CHEST), "upperchest"}, {VROID, H(NECK), "neck"}, {VROID, H(HEAD), "head"},
    {VROID, H(LEFT_SHOULDER), "leftshoulder"}, {VROID, H(LEFT_UPPER_ARM), "leftupperarm"},
    {VROID, H(LEFT_LOWER_ARM), "leftlowerarm"}, {VROID, H(LEFT_HAND), "lefthand"},
    {VROID, H(LEFT_UPPER_LEG), "leftupperleg"}, {VROID, H(LEFT_LOWER_LEG), "leftlowerleg"},
    {VROID, H(LEFT_FOOT), "leftfoot"}, {VROID, H(LEFT_TOES), "lefttoebase"}, {VROID, H(LEFT_TOES), "lefttoes"},

    {MIXAMO, H(CHEST), "spine1"}, {MIXAMO, H(UPPER_CHEST), "spine2"}, {MIXAMO, H(LEFT_UPPER_ARM), "leftarm"},
    {MIXAMO, H(LEFT_LOWER_ARM), "leftforearm"}, {MIXAMO, H(LEFT_UPPER_LEG), "leftupleg"},
    {MIXAMO, H(LEFT_LOWER_LEG), "leftleg"},

    {MMD, H(HIPS), "下半身"}, {MMD, H(SPINE), "上半身"}, {MMD, H(CHEST), "上半身2"}, {MMD, H(UPPER_CHEST), "上半身3"},
    {MMD, H(NECK), "首"}, {MMD, H(HEAD), "頭"}, {MMD, H(LEFT_SHOULDER), "左肩"}, {MMD, H(LEFT_UPPER_ARM), "左腕"},
    {MMD, H(LEFT_LOWER_ARM), "左ひじ"}, {MMD, H(LEFT_HAND), "左手首"}, {MMD, H(LEFT_UPPER_LEG), "左足"},
    {MMD, H(LEFT_LOWER_LEG), "左ひざ"}, {MMD, H(LEFT_FOOT), "左足首"}, {MMD, H(LEFT_TOES), "左つま先"},

    {CHINESE, H(HIPS), "臀部"}, {CHINESE, H(HIPS), "髋部"}, {CHINESE, H(HIPS), "骨盆"}, {CHINESE, H(HIPS), "胯部"},
    {CHINESE, H(SPINE), "脊柱"}, {CHINESE, H(SPINE), "脊椎"}, {CHINESE, H(SPINE), "腰部"},
    {CHINESE, H(CHEST), "胸部"}, {CHINESE, H(CHEST), "胸"}, {CHINESE, H(UPPER_CHEST), "上胸部"},
    {CHINESE, H(UPPER_CHEST), "上胸"}, {CHINESE, H(NECK), "脖子"}, {CHINESE, H(NECK), "颈部"},
    {CHINESE, H(NECK), "颈"}, {CHINESE, H(NECK), "頸部"}, {CHINESE, H(HEAD), "头"}, {CHINESE, H(HEAD), "头部"},
    {CHINESE, H(LEFT_SHOULDER), "左肩膀"}, {CHINESE, H(LEFT_SHOULDER), "左锁骨"},
    {CHINESE, H(LEFT_UPPER_ARM), "左大臂"}, {CHINESE, H(LEFT_UPPER_ARM), "左上臂"}, {CHINESE, H(LEFT_UPPER_ARM), "左臂"},
    {CHINESE, H(LEFT_LOWER_ARM), "左小臂"}, {CHINESE, H(LEFT_LOWER_ARM), "左前臂"}, {CHINESE, H(LEFT_LOWER_ARM), "左肘"},
    {CHINESE, H(LEFT_HAND), "左手"}, {CHINESE, H(LEFT_HAND), "左手腕"}, {CHINESE, H(LEFT_UPPER_LEG), "左大腿"},
    {CHINESE, H(LEFT_LOWER_LEG), "左小腿"}, {CHINESE, H(LEFT_LOWER_LEG), "左膝"}, {CHINESE, H(LEFT_FOOT), "左脚"},
    {CHINESE, H(LEFT_FOOT), "左腳"}, {CHINESE, H(LEFT_FOOT), "左脚踝"}, {CHINESE, H(LEFT_TOES), "左脚趾"},
    {CHINESE, H(LEFT_TOES), "左腳趾"}, {CHINESE, H(LEFT_TOES), "左脚尖"},

    {BIPED, H(HIPS), "pelvis"}, {BIPED, H(LEFT_SHOULDER), "leftclavicle"},
    {BIPED, H(LEFT_UPPER_LEG), "leftthigh"}, {BIPED, H(LEFT_LOWER_LEG), "leftcalf"}, {BIPED, H(LEFT_TOES), "lefttoe0"},
};
/* Mixamo's and Biped's other names (hips, spine, neck, head, leftshoulder, lefthand, leftfoot,
 * lefttoebase; Biped's spine1, spine2, leftupperarm, leftforearm) are already in an earlier table with
 * the same meaning; each string is listed once so that every candidate belongs to exactly one bone. */

#define CANDIDATE_COUNT (sizeof candidates / sizeof candidates[0])

/*
 * CMU motion-capture BVH names (the bvh11 / cmuconvert conversion, and the ASF bone names), where
 * "LeftShoulder" is the upper arm and "LeftCollar" the clavicle, unlike Mixamo. This table is consulted
 * before the others only when the names carry a CMU signature (LeftCollar, LHipJoint, lowerback,
 * lhumerus); otherwise it is not used, so Mixamo's LeftShoulder keeps its meaning.
 */
static const candidate cmu_candidates[] = {
    {CMU, H(HIPS), "hips"}, {CMU, H(SPINE), "lowerback"}, {CMU, H(CHEST), "chest"}, {CMU, H(CHEST), "upperback"},
    {CMU, H(UPPER_CHEST), "chest2"}, {CMU, H(UPPER_CHEST), "thorax"}, {CMU, H(NECK), "neck"},
    {CMU, H(NECK), "lowerneck"}, {CMU, H(HEAD), "head"},
    {CMU, H(LEFT_SHOULDER), "leftcollar"}, {CMU, H(LEFT_SHOULDER), "leftclavicle"},
    {CMU, H(LEFT_UPPER_ARM), "leftshoulder"}, {CMU, H(LEFT_UPPER_ARM), "lefthumerus"},
    {CMU, H(LEFT_LOWER_ARM), "leftelbow"}, {CMU, H(LEFT_LOWER_ARM), "leftradius"},
    {CMU, H(LEFT_HAND), "leftwrist"}, {CMU, H(LEFT_UPPER_LEG), "lefthip"}, {CMU, H(LEFT_UPPER_LEG), "leftfemur"},
    {CMU, H(LEFT_LOWER_LEG), "leftknee"}, {CMU, H(LEFT_LOWER_LEG), "lefttibia"},
    {CMU, H(LEFT_FOOT), "leftankle"}, {CMU, H(LEFT_FOOT), "leftfoot"},
    {CMU, H(LEFT_TOES), "lefttoe"}, {CMU, H(LEFT_TOES), "lefttoes"},
};
#define CMU_COUNT (sizeof cmu_candidates / sizeof cmu_candidates[0])
static const char *const cmu_signature[] = {"leftcollar", "lefthipjoint", "lowerback", "lefthumerus"};

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
    case H(HIPS): case H(SPINE): case H(NECK): case H(HEAD):
    case H(LEFT_UPPER_ARM): case H(LEFT_LOWER_ARM): case H(LEFT_HAND):
    case H(RIGHT_UPPER_ARM): case H(RIGHT_LOWER_ARM): case H(RIGHT_HAND):
    case H(LEFT_UPPER_LEG): case H(LEFT_LOWER_LEG): case H(LEFT_FOOT):
    case H(RIGHT_UPPER_LEG): case H(RIGHT_LOWER_LEG): case H(RIGHT_FOOT): return true;
    default: return false;
    }
}

const char *pm_humanoid_naming_name(pm_humanoid_naming n) {
    static const char *const names[PM_HUMANOID_NAMING_COUNT] = {"none", "vroid", "mixamo", "mmd", "chinese", "biped", "cmu"};
    return (unsigned)n < PM_HUMANOID_NAMING_COUNT ? names[n] : "none";
}

/* The right-side twin of a left bone. */
static pm_humanoid_bone right_of(pm_humanoid_bone b) {
    if (b >= H(LEFT_SHOULDER) && b <= H(LEFT_HAND)) return (pm_humanoid_bone)(b + 4);
    if (b >= H(LEFT_UPPER_LEG) && b <= H(LEFT_TOES)) return (pm_humanoid_bone)(b + 4);
    return b;
}
static bool sided(pm_humanoid_bone b) { return right_of(b) != b; }

/* ---- rule 1: normalisation --------------------------------------------------------------------- */

static bool keep(uint32_t cp) {
    return (cp >= 'a' && cp <= 'z') || (cp >= '0' && cp <= '9') || (cp >= 0x3400 && cp <= 0x4DBF) ||
           (cp >= 0x4E00 && cp <= 0x9FFF) || (cp >= 0xF900 && cp <= 0xFAFF) || (cp >= 0x3041 && cp <= 0x309F) ||
           (cp >= 0x30A1 && cp <= 0x30FA) || (cp >= 0x30FC && cp <= 0x30FF) || cp == 0x3005;
}

size_t pm_humanoid_normalize(const char *name, size_t len, char *out, size_t cap) {
    size_t n = 0, written = 0, i = 0;
    while (name && i < len) {
        uint32_t cp = pmi_fold_fullwidth(pmi_utf8_next(name, len, &i));
        if (cp >= 'A' && cp <= 'Z') cp += 'a' - 'A';
        if (!keep(cp)) continue;
        char tmp[4];
        size_t k = pm_utf8_encode(cp, tmp);
        if (out && written == n && n + k < cap) {
            memcpy(out + n, tmp, k);
            written += k;
        }
        n += k;
    }
    if (out && cap) out[written] = 0;
    return n;
}

/* ---- rules 2-4 --------------------------------------------------------------------------------- */

#define NAME_CAP 64

typedef struct prepared {
    char s[NAME_CAP + 8]; /* stripped, normalised name ("left"/"right" may replace "jbipl"/"jbipr") */
    size_t len;
    int suffix_side; /* 0 none, 1 left, 2 right: ".L", "_R", "HandLeft"... */
    size_t suffix_len; /* bytes of the side at the end of s */
} prepared;

static bool starts(const char *s, size_t len, const char *p) {
    size_t n = strlen(p);
    return len >= n && memcmp(s, p, n) == 0;
}

/* Whether the raw name ends with a separator then L/R (".L", "_r", " R", "-l"). */
static int raw_side_suffix(const char *raw, size_t len) {
    if (len < 2) return 0;
    char c = raw[len - 1], sep = raw[len - 2];
    if (sep != '.' && sep != '_' && sep != ' ' && sep != '-') return 0;
    return (c == 'l' || c == 'L') ? 1 : (c == 'r' || c == 'R') ? 2 : 0;
}

static bool prepare(const char *raw, prepared *p) {
    size_t rawlen = strlen(raw);
    char norm[NAME_CAP];
    size_t n = pm_humanoid_normalize(raw, rawlen, norm, sizeof norm);
    if (n >= NAME_CAP || n == 0) return false;
    const char *s = norm;
    const char *side = "";
    if (starts(s, n, "jbipc")) s += 5, n -= 5;
    else if (starts(s, n, "jbipl")) s += 5, n -= 5, side = "left";
    else if (starts(s, n, "jbipr")) s += 5, n -= 5, side = "right";
    else if (starts(s, n, "mixamorig")) {
        s += 9, n -= 9;
        while (n && *s >= '0' && *s <= '9') s++, n--;
    } else if (starts(s, n, "bip01")) s += 5, n -= 5;
    size_t sl = strlen(side);
    memcpy(p->s, side, sl);
    memcpy(p->s + sl, s, n);
    p->len = sl + n;
    p->s[p->len] = 0;
    p->suffix_side = 0;
    p->suffix_len = 0;
    int raw_side = raw_side_suffix(raw, rawlen);
    if (raw_side && p->len > 1) p->suffix_side = raw_side, p->suffix_len = 1;
    else if (p->len > 4 && memcmp(p->s + p->len - 4, "left", 4) == 0) p->suffix_side = 1, p->suffix_len = 4;
    else if (p->len > 5 && memcmp(p->s + p->len - 5, "right", 5) == 0) p->suffix_side = 2, p->suffix_len = 5;
    return p->len > 0;
}

static bool eq(const char *a, size_t alen, const char *b, size_t blen) { return alen == blen && memcmp(a, b, alen) == 0; }

/* Does the prepared name match candidate string c (already in its left or right form)? */
static bool matches(const prepared *p, const char *c) {
    size_t clen = strlen(c);
    if (eq(p->s, p->len, c, clen)) return true;
    static const char *const words[2] = {"left", "right"};
    for (int side = 0; side < 2; side++) {
        const char *w = words[side];
        size_t wl = strlen(w);
        if (!starts(c, clen, w)) continue;
        const char *rest = c + wl;
        size_t rlen = clen - wl;
        /* "lupperarm" ~ "leftupperarm" (a name starting "l" but not "left") */
        if (p->len > 1 && p->s[0] == w[0] && !starts(p->s, p->len, w) && eq(p->s + 1, p->len - 1, rest, rlen))
            return true;
        /* side at the end: "upperarml" from "UpperArm.L", "handleft" */
        if (p->suffix_side == side + 1 && eq(p->s, p->len - p->suffix_len, rest, rlen)) return true;
    }
    /* "leftupperarm" ~ a candidate written "lupperarm" (none today, kept for symmetry) */
    for (int side = 0; side < 2; side++) {
        const char *w = words[side];
        size_t wl = strlen(w);
        if (starts(p->s, p->len, w) && clen > 1 && c[0] == w[0] && !starts(c, clen, w) &&
            eq(p->s + wl, p->len - wl, c + 1, clen - 1))
            return true;
    }
    return false;
}

/* The right-side form of a left candidate: "left..." -> "right...", "左..." -> "右...". */
static void right_form(const char *left, char *out, size_t cap) {
    static const char hidari[] = "\xe5\xb7\xa6", migi[] = "\xe5\x8f\xb3";
    size_t n = strlen(left);
    if (starts(left, n, "left") && n + 2 <= cap) {
        memcpy(out, "right", 5);
        memcpy(out + 5, left + 4, n - 3);
    } else if (starts(left, n, hidari) && n + 1 <= cap) {
        memcpy(out, migi, 3);
        memcpy(out + 3, left + 3, n - 2);
    } else {
        out[0] = 0;
    }
}

/* ---- mapping ----------------------------------------------------------------------------------- */

/* The first candidate of `table` a prepared name matches (its index and bone), or UINT32_MAX. */
static uint32_t match_in(const prepared *p, const candidate *table, uint32_t count, pm_humanoid_bone *bone) {
    for (uint32_t c = 0; c < count; c++) {
        const candidate *cd = &table[c];
        if (matches(p, cd->name)) {
            *bone = cd->bone;
            return c;
        }
        if (sided(cd->bone)) {
            char right[NAME_CAP];
            right_form(cd->name, right, sizeof right);
            if (right[0] && matches(p, right)) {
                *bone = right_of(cd->bone);
                return c;
            }
        }
    }
    return UINT32_MAX;
}

/* The first candidate (in priority order) a name matches, and its bone; UINT32_MAX if none. With
 * `cmu`, the CMU table comes first (indices 0 .. CMU_COUNT-1) and the others follow; without it, only
 * the main tables are used. Candidates are unique per table, so a name maps to at most one bone. */
static uint32_t first_match(const char *name, bool cmu, pm_humanoid_bone *bone, pm_humanoid_naming *naming) {
    prepared p;
    if (!prepare(name, &p)) return UINT32_MAX;
    uint32_t c;
    if (cmu && (c = match_in(&p, cmu_candidates, (uint32_t)CMU_COUNT, bone)) != UINT32_MAX) {
        *naming = CMU;
        return c;
    }
    if ((c = match_in(&p, candidates, (uint32_t)CANDIDATE_COUNT, bone)) == UINT32_MAX) return UINT32_MAX;
    *naming = candidates[c].naming;
    return (uint32_t)CMU_COUNT + c;
}

/* Whether any name carries a CMU motion-capture signature (see cmu_candidates). */
static bool has_cmu_signature(const char *const *names, uint32_t count, const pm_skeleton *s) {
    uint32_t n = s ? s->bone_count : count;
    for (uint32_t i = 0; i < n; i++) {
        const char *name = s ? (s->bones[i].name.data ? s->bones[i].name.data : "") : names[i];
        prepared p;
        if (!prepare(name, &p)) continue;
        for (size_t k = 0; k < sizeof cmu_signature / sizeof cmu_signature[0]; k++) {
            char right[NAME_CAP];
            right_form(cmu_signature[k], right, sizeof right);
            if (matches(&p, cmu_signature[k]) || (right[0] && matches(&p, right))) return true;
        }
    }
    return false;
}

typedef struct mapper {
    pm_humanoid_map *out;
    bool cmu; /* the names carry a CMU signature */
    uint32_t best[PM_HUMANOID_BONE_COUNT]; /* candidate index of the current pick */
} mapper;

static void mapper_init(mapper *m, pm_humanoid_map *out) {
    memset(out, 0, sizeof *out);
    m->out = out;
    m->cmu = false;
    out->total = PM_HUMANOID_BONE_COUNT;
    for (int h = 0; h < PM_HUMANOID_BONE_COUNT; h++) {
        out->bone[h] = PM_NO_INDEX;
        m->best[h] = UINT32_MAX;
    }
}

/* Offer model bone `index`; a strictly better candidate replaces the pick, so earlier bones win ties. */
static void mapper_offer(mapper *m, const char *name, uint32_t index) {
    pm_humanoid_bone h;
    pm_humanoid_naming naming;
    uint32_t c = first_match(name, m->cmu, &h, &naming);
    if (c == UINT32_MAX || c >= m->best[h]) return;
    m->best[h] = c;
    m->out->bone[h] = index;
    m->out->naming[h] = naming;
}

static void mapper_finish(mapper *m) {
    pm_humanoid_map *out = m->out;
    out->drivable = true;
    for (int h = 0; h < PM_HUMANOID_BONE_COUNT; h++) {
        if (out->bone[h] != PM_NO_INDEX) out->mapped++;
        else if (pm_humanoid_bone_required((pm_humanoid_bone)h)) {
            out->missing_required[out->missing_required_count++] = (pm_humanoid_bone)h;
            out->drivable = false;
        }
    }
}

pm_result pm_humanoid_map_names(const char *const *names, uint32_t count, pm_humanoid_map *out, pm_error *err) {
    if (!out) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "humanoid: out is NULL");
    mapper m;
    mapper_init(&m, out);
    if (count && !names) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "humanoid: names is NULL");
    for (uint32_t i = 0; i < count; i++)
        if (!names[i]) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "humanoid: name %u is NULL", i);
    m.cmu = has_cmu_signature(names, count, NULL);
    for (uint32_t i = 0; i < count; i++) mapper_offer(&m, names[i], i);
    mapper_finish(&m);
    return PM_OK;
}

pm_result pm_humanoid_map_skeleton(const pm_skeleton *s, pm_humanoid_map *out, pm_error *err) {
    if (!out) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "humanoid: out is NULL");
    mapper m;
    mapper_init(&m, out);
    if (!s) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "humanoid: skeleton is NULL");
    m.cmu = has_cmu_signature(NULL, 0, s);
    for (uint32_t i = 0; i < s->bone_count; i++) mapper_offer(&m, s->bones[i].name.data ? s->bones[i].name.data : "", i);
    mapper_finish(&m);
    return PM_OK;
}

/* ---- table access (humanoid_internal.h) --------------------------------------------------------- */

uint32_t pmi_humanoid_candidate_count(void) { return (uint32_t)CANDIDATE_COUNT; }

const char *pmi_humanoid_candidate(uint32_t i, pm_humanoid_naming *naming, pm_humanoid_bone *bone) {
    if (i >= CANDIDATE_COUNT) return NULL;
    if (naming) *naming = candidates[i].naming;
    if (bone) *bone = candidates[i].bone;
    return candidates[i].name;
}

/* The dance's vocabulary and phrasing: every beat's pose, from moves chosen phrase by phrase (see
 * procmotion/dance.h). */
#include "dance/dance_internal.h"

#include "lifelike/signal.h"

#include <math.h>
#include <string.h>

#define DEG (PM_PI / 180.0)

enum { R_STEP = 301, R_ARMS, R_ENDING, R_SIDE, R_CHANGE };

static double rnd(const dance *d, uint32_t stream, int64_t i) { return pmi_uniform(d->p.seed, stream, i); }

/* ---- moves -------------------------------------------------------------------------------------- */

/* Beats each move lasts. */
static uint32_t move_beats(pm_dance_move m) {
    switch (m) {
    case PM_DANCE_STEP_TOUCH: case PM_DANCE_ROCK: case PM_DANCE_WAVE: return 4;
    default: return 2;
    }
}

static void set_home_feet(dance_key *k) {
    memset(k->foot, 0, sizeof k->foot);
    k->lifted[0] = k->lifted[1] = false;
    k->foot_yaw[0] = k->foot_yaw[1] = 0;
    k->weight = 0, k->yaw = 0, k->lean = 0;
}

static void set_arms(dance_key *k, int a, dance_arm lead, dance_arm other, double size) {
    k->arm[a] = (uint8_t)lead, k->arm[1 - a] = (uint8_t)other;
    k->arm_size[0] = k->arm_size[1] = size;
}

/* A step with the lead foot a (0 left, 1 right): keys start + 1 .. start + beats. With fewer beats left
 * (`room`) a 4-beat step is cut to its first beat and a return home. */
static void write_step(dance *d, pm_dance_move m, int a, uint32_t start, double size, uint32_t room) {
    const double L = d->L, sg = a ? -1 : 1;
    const int b = 1 - a;
    const uint32_t n = move_beats(m) <= room ? move_beats(m) : 2;
    for (uint32_t j = 1; j <= n && start + j <= d->nb; j++) {
        dance_key *k = &d->keys[start + j];
        set_home_feet(k);
        if (j == n) {
            k->weight = m == PM_DANCE_GROOVE || m == PM_DANCE_BODY_ROLL ? -sg * 0.6 : 0;
            if (m == PM_DANCE_BODY_ROLL) k->lean = 6 * DEG * size;
            if (m == PM_DANCE_STEP_TOUCH) k->weight = -sg * 0.3;
            continue;
        }
        switch (m) {
        case PM_DANCE_STEP_TOUCH:
            k->foot[a][0] = sg * 0.2 * L * size;
            if (j == 2) k->foot[b][0] = sg * 0.2 * L * size;
            k->weight = j == 1 ? sg * 0.8 : j == 2 ? sg * 0.5 : -sg * 0.8;
            break;
        case PM_DANCE_SIDE_STEP:
            k->foot[a][0] = sg * 0.26 * L * size;
            k->weight = sg * 0.3;
            break;
        case PM_DANCE_KICK:
            k->foot[b][1] = 0.16 * L * size, k->foot[b][2] = -0.3 * L * size, k->lifted[b] = true;
            k->weight = sg;
            k->lean = 4 * DEG * size;
            break;
        case PM_DANCE_KNEE_UP:
            k->foot[b][1] = 0.26 * L * size, k->foot[b][2] = -0.1 * L * size, k->lifted[b] = true;
            k->weight = sg;
            k->lean = -4 * DEG * size;
            break;
        case PM_DANCE_ROCK:
            k->foot[a][2] = j == 3 ? 0.14 * L * size : -0.2 * L * size;
            k->weight = j == 2 ? -sg * 0.5 : sg * 0.5;
            k->lean = j == 1 ? -5 * DEG * size : j == 2 ? 3 * DEG * size : 0;
            break;
        case PM_DANCE_TAP:
            k->foot[b][0] = -sg * 0.2 * L * size;
            k->weight = sg * 0.9;
            break;
        case PM_DANCE_PIVOT: {
            /* an eighth of a turn about the other foot, which turns on its spot */
            double psi = sg * 45 * DEG * size;
            pmi_dq q = {0, sin(0.5 * psi), 0, cos(0.5 * psi)};
            pmi_dv pa = d->pos[DG_ANKLE_L + a], pb = d->pos[DG_ANKLE_L + b];
            pmi_dv na = pmi_dv_add(pb, pmi_dq_rotate(q, pmi_dv_sub(pa, pb)));
            k->foot[a][0] = na.x - pa.x, k->foot[a][2] = na.z - pa.z;
            k->foot_yaw[a] = k->foot_yaw[b] = psi;
            k->yaw = psi;
            k->weight = -sg * 0.3;
            break;
        }
        case PM_DANCE_BODY_ROLL:
            k->lean = -12 * DEG * size;
            k->weight = sg * 0.4;
            break;
        default: /* groove: the feet stay, the weight rocks */
            k->weight = sg * 0.6;
            break;
        }
    }
}

/* An arm pattern led by hand a: keys start + 1 .. start + beats (at most `room`). */
static void write_arms(dance *d, pm_dance_move m, int a, uint32_t start, double size, uint32_t room) {
    const uint32_t n = move_beats(m) <= room ? move_beats(m) : room;
    const double sg = a ? -1 : 1;
    for (uint32_t j = 1; j <= n && start + j <= d->nb; j++) {
        dance_key *k = &d->keys[start + j];
        const bool odd = j % 2 == 1;
        k->look = 0, k->twist = 0, k->wrist[0] = k->wrist[1] = 0;
        switch (m) {
        case PM_DANCE_CLAP: set_arms(k, a, odd ? DA_CLAP : DA_OPEN, odd ? DA_CLAP : DA_OPEN, size); break;
        case PM_DANCE_ARMS_UP: set_arms(k, a, odd ? DA_V : DA_SHOULDER, odd ? DA_V : DA_SHOULDER, size); break;
        case PM_DANCE_POINT:
            set_arms(k, a, odd ? DA_POINT : DA_BENT, DA_HIPS, size);
            k->look = odd ? sg * 15 * DEG * size : 0;
            break;
        case PM_DANCE_WAVE:
            set_arms(k, a, odd ? DA_WAVE_A : DA_WAVE_B, DA_HIPS, size);
            k->wrist[a] = (odd ? 1 : -1) * 20 * DEG * size;
            k->look = sg * 10 * DEG * size;
            break;
        case PM_DANCE_HIPS: set_arms(k, a, DA_HIPS, DA_HIPS, size); break;
        case PM_DANCE_CROSS: set_arms(k, a, odd ? DA_CROSS : DA_OUT, odd ? DA_CROSS : DA_OUT, size); break;
        case PM_DANCE_PUNCH:
            set_arms(k, a, odd ? DA_FRONT : DA_BENT, odd ? DA_BENT : DA_FRONT, size);
            k->twist = (odd ? -sg : sg) * 10 * DEG * size;
            break;
        case PM_DANCE_ROLL: set_arms(k, a, odd ? DA_ROLL_HI : DA_ROLL_LO, odd ? DA_ROLL_LO : DA_ROLL_HI, size); break;
        default: /* swing: low, against the feet */
            set_arms(k, a, odd ? DA_SWING_B : DA_SWING_F, odd ? DA_SWING_F : DA_SWING_B, size);
            break;
        }
    }
}

/* The phrase's last two beats: a bigger move on the first, home on the second. */
static void write_ending(dance *d, pm_dance_move m, int a, uint32_t start, double size) {
    if (start + 2 > d->nb) return;
    const double L = d->L, sg = a ? -1 : 1;
    const int b = 1 - a;
    dance_key *k = &d->keys[start + 1], *h = &d->keys[start + 2];
    set_home_feet(k);
    set_home_feet(h);
    k->look = h->look = 0, k->twist = h->twist = 0;
    k->wrist[0] = k->wrist[1] = h->wrist[0] = h->wrist[1] = 0;
    double big = fmin(1.0, size * 1.25);
    switch (m) {
    case PM_DANCE_KICK:
        k->foot[b][1] = 0.18 * L * big, k->foot[b][2] = -0.32 * L * big, k->lifted[b] = true;
        k->weight = sg;
        set_arms(k, a, DA_OUT, DA_OUT, big);
        break;
    case PM_DANCE_POINT:
        k->foot[b][0] = -sg * 0.22 * L * big;
        k->weight = sg * 0.9;
        set_arms(k, a, DA_POINT, DA_HIPS, big);
        k->look = sg * 20 * DEG * big;
        break;
    case PM_DANCE_CLAP:
        k->foot[a][0] = sg * 0.24 * L * big;
        k->weight = sg * 0.3;
        set_arms(k, a, DA_CLAP, DA_CLAP, big);
        k->lean = -6 * DEG * big;
        break;
    default: /* arms up */
        k->foot[a][0] = sg * 0.24 * L * big;
        k->weight = 0;
        set_arms(k, a, DA_UP, DA_UP, big);
        k->lean = 4 * DEG * big;
        break;
    }
    set_arms(h, a, DA_LOW, DA_LOW, big);
}

/* ---- the phrases -------------------------------------------------------------------------------- */

typedef struct recipe {
    pm_dance_move step, arms, ending;
    bool mirrored;
    int level; /* 0 quiet, 1, 2 loud */
} recipe;

/* Moves by style and energy level, with weights. */
typedef struct pick {
    pm_dance_move move;
    float w[PM_DANCE_STYLE_COUNT];
    int min_level;
} pick;

static const pick STEPS[] = {
    {PM_DANCE_GROOVE, {1, 2, 0.5f}, 0},     {PM_DANCE_TAP, {1, 0.5f, 1.5f}, 0},       {PM_DANCE_BODY_ROLL, {0.7f, 2, 0.2f}, 0},
    {PM_DANCE_SIDE_STEP, {1, 1, 1}, 0},     {PM_DANCE_STEP_TOUCH, {1.5f, 1, 2}, 1},   {PM_DANCE_ROCK, {1, 1.5f, 0.5f}, 1},
    {PM_DANCE_KICK, {1, 0.5f, 1.5f}, 1},    {PM_DANCE_KNEE_UP, {0.8f, 1.5f, 0.8f}, 2}, {PM_DANCE_PIVOT, {0.8f, 0.8f, 0.8f}, 2},
};
static const pick ARMS[] = {
    {PM_DANCE_SWING, {1, 1, 1}, 0},       {PM_DANCE_HIPS, {0.8f, 1, 0.6f}, 0},  {PM_DANCE_ROLL, {0.6f, 1.5f, 0.3f}, 0},
    {PM_DANCE_CLAP, {1, 0.5f, 2}, 0},     {PM_DANCE_CROSS, {0.8f, 1.5f, 0.5f}, 1}, {PM_DANCE_PUNCH, {0.8f, 2, 0.3f}, 1},
    {PM_DANCE_POINT, {1, 1, 1.5f}, 1},    {PM_DANCE_WAVE, {0.8f, 0.5f, 1.5f}, 1}, {PM_DANCE_ARMS_UP, {1, 0.5f, 1.5f}, 2},
};
static const pick ENDINGS[] = {
    {PM_DANCE_ARMS_UP, {1, 0.5f, 1.5f}, 1}, {PM_DANCE_POINT, {1, 1.5f, 1}, 0}, {PM_DANCE_KICK, {1, 1, 1}, 1},
    {PM_DANCE_CLAP, {1, 0.5f, 1.5f}, 0},
};

/* A move from `list` (not `avoid`, when there is another), fitting `beats` when nonzero. */
static pm_dance_move choose(const dance *d, const pick *list, uint32_t count, int level, pm_dance_move avoid, uint32_t beats,
                            double legs_bias, uint32_t stream, int64_t i) {
    double total = 0, w[16];
    for (uint32_t j = 0; j < count; j++) {
        w[j] = list[j].min_level <= level ? list[j].w[d->p.style] : 0;
        if (beats && move_beats(list[j].move) > beats) w[j] = 0;
        /* little emphasis on the legs favours the steps that stay in place */
        if (list == STEPS && (list[j].move == PM_DANCE_GROOVE || list[j].move == PM_DANCE_BODY_ROLL)) w[j] *= legs_bias;
        total += w[j];
    }
    double others = 0;
    for (uint32_t j = 0; j < count; j++) others += list[j].move == avoid ? 0 : w[j];
    if (others > 0) {
        for (uint32_t j = 0; j < count; j++)
            if (list[j].move == avoid) w[j] = 0;
        total = others;
    }
    double x = rnd(d, stream, i) * total;
    for (uint32_t j = 0; j < count; j++) {
        if (x < w[j]) return list[j].move;
        x -= w[j];
    }
    for (uint32_t j = count; j-- > 0;)
        if (w[j] > 0) return list[j].move;
    return list[0].move;
}

#define COUNT(a) (uint32_t)(sizeof(a) / sizeof((a)[0]))

static bool same(const recipe *a, const recipe *b) {
    return a->step == b->step && a->arms == b->arms && a->ending == b->ending && a->mirrored == b->mirrored && a->level == b->level;
}

/* Moves that alternate sides beat by beat: their mirror is their own continuation. */
static bool alternates(pm_dance_move m) {
    return m == PM_DANCE_GROOVE || m == PM_DANCE_BODY_ROLL || m == PM_DANCE_SWING || m == PM_DANCE_PUNCH || m == PM_DANCE_ROLL;
}

/* Write one phrase (P beats from `start`): the step and its mirror repeated, the arm pattern likewise,
 * the ending on the last two beats. */
static void write_phrase(dance *d, const recipe *r, uint32_t start, uint32_t P, double size, double arm_size) {
    int a = r->mirrored ? 1 : 0;
    const uint32_t body = P >= 4 ? P - 2 : P;
    /* the step and its mirror, then the arm pattern and its mirror, over the phrase's body (the last one
     * cut short where it does not fit) */
    const uint32_t sb = move_beats(r->step), ab = move_beats(r->arms);
    for (uint32_t j = 0, n = 0; j < body; j += sb, n++)
        write_step(d, r->step, (int)((a + (alternates(r->step) ? 0 : n)) % 2), start + j, size, body - j);
    for (uint32_t j = 0, n = 0; j < body; j += ab, n++)
        write_arms(d, r->arms, (int)((a + (alternates(r->arms) ? 0 : n)) % 2), start + j, arm_size, body - j);
    if (P >= 4) write_ending(d, r->ending, a, start + body, size);
}

/* The lead-in and any beats after the last whole phrase: the groove, the arms swinging small. */
static void write_groove_beats(dance *d, uint32_t from, uint32_t to, double size) {
    for (uint32_t k = from + 1; k <= to && k <= d->nb; k++) {
        dance_key *key = &d->keys[k];
        set_home_feet(key);
        /* the weight rocks and the arms swing every beat, so the body's stops are the beats' */
        key->weight = k % 2 ? 0.7 : -0.7;
        set_arms(key, 0, k % 2 ? DA_SWING_F : DA_SWING_B, k % 2 ? DA_SWING_B : DA_SWING_F, fmax(0.6, size));
        key->pulse = 0.5;
        key->look = key->twist = 0;
        key->wrist[0] = key->wrist[1] = 0;
    }
    if (to <= d->nb && to > from) { /* end at home */
        set_home_feet(&d->keys[to]);
        set_arms(&d->keys[to], 0, DA_LOW, DA_LOW, 0);
    }
}

static double phrase_energy(const dance *d, uint32_t start, uint32_t P) {
    if (!d->beat_energy) return 0.5;
    double s = 0;
    uint32_t n = 0;
    for (uint32_t k = start; k < start + P && k < d->nb; k++) s += d->beat_energy[k], n++;
    return n ? s / n : 0.5;
}

pm_result pmi_dance_plan(dance *d, pm_dance_info *info, pm_error *err) {
    (void)err;
    const uint32_t P = d->phrase_beats;
    for (uint32_t k = 0; k <= d->nb; k++) {
        memset(&d->keys[k], 0, sizeof d->keys[k]);
        d->keys[k].arm[0] = d->keys[k].arm[1] = DA_LOW;
    }
    const double energy = d->p.energy.value, variety = d->p.variety.value;
    const double legs_bias = 0.4 + 1.6 * (1 - d->p.legs.value); /* 0.5 -> 1.2 */
    const double arm_gain = 0.5 + d->p.arms.value, leg_gain = 0.6 + 0.8 * d->p.legs.value;
    /* the phrases and their energy, normalised over the song (10th to 90th percentile) */
    uint32_t np = 0;
    for (uint32_t s = d->first_down; s + P <= d->nb && np < PM_DANCE_MAX_PHRASES; s += P) np++;
    double lo = 0, hi = 1;
    if (d->beat_energy && np >= 2) {
        double e[PM_DANCE_MAX_PHRASES];
        for (uint32_t i = 0; i < np; i++) e[i] = phrase_energy(d, d->first_down + i * P, P);
        for (uint32_t i = 1; i < np; i++)
            for (uint32_t j = i; j > 0 && e[j - 1] > e[j]; j--) {
                double t = e[j];
                e[j] = e[j - 1], e[j - 1] = t;
            }
        lo = e[(np - 1) / 10], hi = e[np - 1 - (np - 1) / 10];
        if (!(hi - lo > 1e-6)) lo = 0, hi = 1;
    }
    recipe library[3];
    bool in_library[3] = {false, false, false};
    recipe cur;
    memset(&cur, 0, sizeof cur);
    int section_level = -1;
    uint32_t plays = 0, section = 0, keep = 2, run = 0;
    info->phrase_count = 0;
    info->distinct_phrases = 0;
    info->longest_repeat = 0;
    recipe seen[PM_DANCE_MAX_PHRASES];
    uint32_t seen_n = 0;
    for (uint32_t i = 0; i < np; i++) {
        const uint32_t start = d->first_down + i * P;
        double e = d->beat_energy ? (phrase_energy(d, start, P) - lo) / (hi - lo) : 0.6;
        e = e < 0 ? 0 : e > 1 ? 1 : e;
        /* the section's level: the energy of this phrase and its neighbours, so one loud bar is no section */
        double es = e;
        if (d->beat_energy) {
            double sum = 0;
            int n = 0;
            for (int64_t j = (int64_t)i - 1; j <= (int64_t)i + 1; j++)
                if (j >= 0 && j < (int64_t)np) sum += (phrase_energy(d, d->first_down + (uint32_t)j * P, P) - lo) / (hi - lo), n++;
            es = sum / n;
            es = es < 0 ? 0 : es > 1 ? 1 : es;
        }
        /* the level, with a margin against flicker */
        int level = es < 0.3 ? 0 : es < 0.7 ? 1 : 2;
        if (section_level >= 0 && level != section_level) {
            double edge_lo = section_level == 0 ? 0.3 : section_level == 1 ? 0.3 : 0.7;
            double edge_hi = section_level == 0 ? 0.3 : section_level == 1 ? 0.7 : 1.0;
            if (es > edge_lo - 0.1 && es < edge_hi + 0.1) level = section_level;
        }
        if (!d->beat_energy) level = energy < 0.3 ? 0 : energy < 0.75 ? 1 : 2;
        const double size = fmin(1.0, fmax(0.15, energy * (0.45 + 0.8 * e) / 0.85));
        recipe prev = cur;
        if (level != section_level) {
            /* a new section: the phrase this level had before (a chorus comes back), else a new one */
            if (section_level >= 0) section++;
            section_level = level;
            if (in_library[level]) {
                cur = library[level];
            } else {
                cur.level = level;
                cur.step = choose(d, STEPS, COUNT(STEPS), level, PM_DANCE_MOVE_COUNT, 0, legs_bias, R_STEP, i);
                cur.arms = choose(d, ARMS, COUNT(ARMS), level, PM_DANCE_MOVE_COUNT, 0, 1, R_ARMS, i);
                cur.ending = choose(d, ENDINGS, COUNT(ENDINGS), level, PM_DANCE_MOVE_COUNT, 0, 1, R_ENDING, i);
                cur.mirrored = rnd(d, R_SIDE, i) < 0.5;
                library[level] = cur;
                in_library[level] = true;
            }
            plays = 0;
            keep = rnd(d, R_CHANGE, 2 * i) < variety ? 1 : 2;
        } else if (plays >= keep) {
            /* change the arms, the steps or both; the ending and the lead side too */
            double c = rnd(d, R_CHANGE, 2 * i + 1);
            if (c < 0.4) cur.arms = choose(d, ARMS, COUNT(ARMS), level, cur.arms, 0, 1, R_ARMS, i);
            else if (c < 0.8) cur.step = choose(d, STEPS, COUNT(STEPS), level, cur.step, 0, legs_bias, R_STEP, i);
            else {
                cur.arms = choose(d, ARMS, COUNT(ARMS), level, cur.arms, 0, 1, R_ARMS, i);
                cur.step = choose(d, STEPS, COUNT(STEPS), level, cur.step, 0, legs_bias, R_STEP, i);
            }
            cur.ending = choose(d, ENDINGS, COUNT(ENDINGS), level, cur.ending, 0, 1, R_ENDING, i);
            cur.mirrored = !cur.mirrored;
            plays = 0;
            keep = rnd(d, R_CHANGE, 2 * i) < variety ? 1 : 2;
        }
        plays++;
        write_phrase(d, &cur, start, P, size * leg_gain > 1 ? 1 : size * leg_gain, fmin(1.0, size * arm_gain));
        /* the report */
        run = i > 0 && same(&prev, &cur) ? run + 1 : 1;
        if (run > info->longest_repeat) info->longest_repeat = run;
        uint32_t id = seen_n;
        for (uint32_t j = 0; j < seen_n; j++)
            if (same(&seen[j], &cur)) id = j;
        if (id == seen_n) seen[seen_n++] = cur;
        pm_dance_phrase *ph = &info->phrases[info->phrase_count++];
        ph->first_beat = start;
        ph->start = (uint32_t)llround(d->bt[start]);
        ph->end = (uint32_t)llround(d->bt[start + P]);
        ph->id = id;
        ph->section = section;
        ph->step = cur.step, ph->arms = cur.arms, ph->ending = cur.ending;
        ph->mirrored = cur.mirrored;
        ph->size = (float)size;
    }
    info->distinct_phrases = seen_n;
    info->section_count = np ? section + 1 : 0;
    /* before the first phrase and after the last: the groove */
    const double small = fmin(1.0, fmax(0.15, 0.5 * energy));
    write_groove_beats(d, 0, d->first_down, small);
    uint32_t after = d->first_down + np * P;
    if (after < d->nb) write_groove_beats(d, after, d->nb, small);
    set_home_feet(&d->keys[0]);
    set_arms(&d->keys[0], 0, DA_LOW, DA_LOW, 0);
    set_home_feet(&d->keys[d->nb]);
    set_arms(&d->keys[d->nb], 0, DA_LOW, DA_LOW, 0);
    d->keys[d->nb].look = d->keys[d->nb].twist = 0;
    /* センター over the feet, the weight toward the foot that holds it; a song's first and last beats
     * stand still */
    for (uint32_t k = 0; k <= d->nb; k++) {
        dance_key *key = &d->keys[k];
        key->pulse = d->loop || (k > 0 && k < d->nb) ? (key->pulse > 0 ? key->pulse : 1) : 0;
        double w = key->weight, wl = 0.5 * (1 + w), wr = 0.5 * (1 - w);
        if (key->lifted[0]) wl = 0, wr = 1;
        if (key->lifted[1]) wl = 1, wr = 0;
        key->center[0] = 0.8 * (wl * key->foot[0][0] + wr * key->foot[1][0]) + w * d->sway;
        key->center[1] = 0;
        key->center[2] = 0.8 * (wl * key->foot[0][2] + wr * key->foot[1][2]);
        if (key->yaw != 0) { /* a pivot: the body turns about the standing foot */
            int s = key->foot[0][0] == 0 && key->foot[0][2] == 0 ? 0 : 1;
            pmi_dq q = {0, sin(0.5 * key->yaw), 0, cos(0.5 * key->yaw)};
            pmi_dv c = d->pos[DB_CENTER], f = d->pos[DG_ANKLE_L + s];
            pmi_dv f2 = pmi_dv_make(f.x, c.y, f.z);
            pmi_dv nc = pmi_dv_add(f2, pmi_dq_rotate(q, pmi_dv_sub(c, f2)));
            key->center[0] = nc.x - c.x, key->center[2] = nc.z - c.z;
        }
    }
    return PM_OK;
}

const char *pm_dance_move_name(pm_dance_move m) {
    static const char *const names[PM_DANCE_MOVE_COUNT] = {
        "groove", "stepTouch", "sideStep", "kick", "kneeUp", "rock", "tap", "pivot", "bodyRoll",
        "swing", "clap", "armsUp", "point", "wave", "hips", "cross", "punch", "roll"};
    return (unsigned)m < PM_DANCE_MOVE_COUNT ? names[m] : NULL;
}

/* procmotion dance: a dance to a song's beats, or a looping dance at a tempo, as a VMD. */
#include "cli.h"
#include "dance/info.h"
#include "procmotion/dance.h"
#include "procmotion/vmd.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char cmd_dance_usage[] =
    "usage: procmotion dance --beats SONG [options] -o dance.vmd\n"
    "       procmotion dance --bpm N [options] -o dance.vmd\n"
    "\n"
    "Write a dance as a VMD and print a JSON summary to stdout: its phrases, bones used and missing, and,\n"
    "on a model or the built-in mannequin, what MMD plays (the feet's landing report, the body's figures).\n"
    "With a song the dance lasts from its first beat to its last, its moves as big as the music is loud;\n"
    "with a tempo it is a seamless loop. Amounts are 0..1 unless stated.\n"
    "\n"
    "  -o, --output FILE      where to write the VMD (\"-\" = stdout; the summary then goes to stderr)\n"
    "  --beats SONG           a song (.wav; mp3, ogg, flac ... through ffmpeg) whose beats are detected, or\n"
    "                         the JSON `procmotion beats [--envelope]` prints\n"
    "  --bpm N                a loop at this tempo (40..240; default 120 without --beats)\n"
    "  --model FILE           a PMX/PMD model: the feet are landed on it (default: the built-in mannequin)\n"
    "  --params FILE          read parameters from a JSON file (the JS glue's names); flags override\n"
    "  --style NAME           pop (default), hiphop or idol\n"
    "  --seed N               which moves, in which order (default 1)\n"
    "  --energy X (0.6)  --variety X (0.5)  --arms X (0.5)  --legs X (0.5)  --body X (0.5)\n"
    "  --duration S           a loop: its shortest length (8..120, 16); a song: where to stop (0 = its end)\n";

#define AF(flag, field) {flag, offsetof(pm_dance_params, field)}
static const cli_amount_flag AMOUNT_FLAGS[] = {
    AF("--energy", energy), AF("--variety", variety), AF("--arms", arms), AF("--legs", legs), AF("--body", body), AF("--duration", duration),
};
#define AMOUNT_FLAG_COUNT (sizeof AMOUNT_FLAGS / sizeof AMOUNT_FLAGS[0])

/* The onset envelope of `procmotion beats --envelope` JSON, if it has one (free() it). */
static float *json_envelope(const char *path, uint32_t *count, double *rate) {
    size_t size = 0;
    uint8_t *text = cli_read_file(path, &size);
    cJSON *j = text ? cJSON_ParseWithLength((const char *)text, size) : NULL;
    free(text);
    const cJSON *e = cJSON_GetObjectItemCaseSensitive(j, "onsetEnvelope"), *r = cJSON_GetObjectItemCaseSensitive(j, "onsetRate");
    float *out = NULL;
    int n = cJSON_IsArray(e) ? cJSON_GetArraySize(e) : 0;
    if (n > 0 && cJSON_IsNumber(r) && r->valuedouble > 0 && (out = malloc(sizeof(float) * (size_t)n))) {
        int i = 0;
        for (const cJSON *x = e->child; x; x = x->next, i++) out[i] = cJSON_IsNumber(x) ? (float)x->valuedouble : 0;
        *count = (uint32_t)n;
        *rate = r->valuedouble;
    }
    cJSON_Delete(j);
    return out;
}

int cmd_dance(int argc, char **argv) {
    pm_dance_params p, flags;
    memset(&p, 0, sizeof p);
    memset(&flags, 0, sizeof flags);
    bool set_bpm = false, set_seed = false;
    const char *output = NULL, *model_path = NULL, *params_path = NULL, *beats_path = NULL, *style = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        double d;
        if (strcmp(a, "-o") == 0 || strcmp(a, "--output") == 0 || strcmp(a, "--model") == 0 || strcmp(a, "--params") == 0 ||
            strcmp(a, "--beats") == 0 || strcmp(a, "--style") == 0) {
            if (!v) return cli_fail("dance", "%s needs a value", a), 2;
            if (a[1] == 'o' || strcmp(a, "--output") == 0) output = v;
            else if (strcmp(a, "--model") == 0) model_path = v;
            else if (strcmp(a, "--params") == 0) params_path = v;
            else if (strcmp(a, "--beats") == 0) beats_path = v;
            else style = v;
            i++;
            continue;
        }
        const cli_amount_flag *af = cli_find_amount(AMOUNT_FLAGS, AMOUNT_FLAG_COUNT, a);
        if (!af && strcmp(a, "--bpm") != 0 && strcmp(a, "--seed") != 0)
            return cli_fail("dance", "unknown option '%s' (see procmotion dance --help)", a), 2;
        if (!v) return cli_fail("dance", "%s needs a value", a), 2;
        if (!cli_parse_double(v, &d)) return cli_fail("dance", "%s: '%s' is not a number", a, v), 2;
        i++;
        if (af) *(pm_amount *)((char *)&flags + af->offset) = PM_AMOUNT(d);
        else if (strcmp(a, "--bpm") == 0) flags.bpm = (float)d, set_bpm = true;
        else {
            if (d < 0 || d > 4294967295.0 || d != (double)(uint32_t)d) return cli_fail("dance", "--seed must be a whole number in 0..4294967295"), 2;
            flags.seed = (uint32_t)d, set_seed = true;
        }
    }
    if (!output) return cli_fail("dance", "no output file (-o dance.vmd)"), 2;
    pm_error err = {0};
    if (params_path) {
        size_t size = 0;
        uint8_t *text = cli_read_file(params_path, &size);
        if (!text) return 1;
        pm_result r = pm_dance_params_from_json((const char *)text, size, &p, &err);
        free(text);
        if (r) return cli_fail("dance", "%s: %s", params_path, err.message);
    }
    if (style) {
        int found = -1;
        for (int s = 0; s < PM_DANCE_STYLE_COUNT; s++)
            if (strcmp(style, pm_dance_style_name((pm_dance_style)s)) == 0) found = s;
        if (found < 0) return cli_fail("dance", "--style must be pop, hiphop or idol, got '%s'", style), 2;
        p.style = (pm_dance_style)found;
    }
    if (set_bpm) p.bpm = flags.bpm;
    if (set_seed) p.seed = flags.seed;
    cli_merge_amounts(AMOUNT_FLAGS, AMOUNT_FLAG_COUNT, &flags, &p);

    /* the song: a beats JSON, or audio whose beats are detected here */
    double *grid_beats = NULL;
    float *envelope = NULL;
    pm_beats *detected = NULL;
    if (beats_path && cli_ends_with(beats_path, ".json")) {
        if (!cli_read_grid("dance", beats_path, NULL, 0, &p.grid, &grid_beats)) return 1;
        envelope = json_envelope(beats_path, &p.onset_count, &p.onset_rate);
        p.onset = envelope;
    } else if (beats_path) {
        pm_audio *audio = cli_read_audio("dance", beats_path);
        if (!audio) return 1;
        pm_result r = pm_beats_detect(audio->samples, audio->frame_count, audio->channels, audio->sample_rate, NULL, &detected, &err);
        pm_audio_free(audio);
        if (r != PM_OK) return cli_fail("dance", "%s: %s", beats_path, err.message);
        if (detected->beat_count < 2) return pm_beats_free(detected), cli_fail("dance", "%s: no beats found", beats_path);
        p.grid.bpm = detected->bpm;
        p.grid.offset = detected->beats[0];
        p.grid.beats = detected->beats;
        p.grid.beat_count = detected->beat_count;
        p.grid.beats_per_bar = detected->beats_per_bar;
        p.grid.first_downbeat = detected->first_downbeat < detected->beat_count ? detected->first_downbeat : 0;
        p.onset = detected->onset_envelope, p.onset_count = detected->onset_count, p.onset_rate = detected->onset_rate;
    }
    pm_target_model model;
    memset(&model, 0, sizeof model);
    pm_skeleton *sk = NULL;
    int rc = 0;
    pm_vmd *vmd = NULL;
    pm_dance_info *info = malloc(sizeof *info);
    if (!info) {
        rc = cli_fail("dance", "out of memory");
        goto done;
    }
    if (model_path && !cli_read_skeleton("dance", model_path, &sk)) {
        rc = 1;
        goto done;
    }
    model.skeleton = sk;
    if (pm_dance_generate(&p, sk ? &model : NULL, &vmd, info, &err) != PM_OK) {
        rc = cli_fail_error("dance", &err);
        goto done;
    }
    cJSON *j = pmi_dance_info_json(info, NULL);
    if (j && model_path) cJSON_AddStringToObject(j, "model", model_path);
    if (j && beats_path) cJSON_AddStringToObject(j, "beats", beats_path);
    rc = cli_write_vmd_summary("dance", output, vmd, j);
done:
    free(info);
    pm_vmd_free(vmd);
    pm_skeleton_free(sk);
    pm_beats_free(detected);
    free(envelope);
    free(grid_beats);
    return rc;
}

/* procmotion beats SONG [options]: tempo, beats, downbeats and the onset envelope of music, as JSON. */
#include "cli.h"
#include "procmotion/audio.h"
#include "procmotion/beats.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char cmd_beats_usage[] =
    "usage: procmotion beats SONG [options]\n"
    "\n"
    "Detect the tempo, beats and downbeats of music and print them as JSON (docs/music.md).\n"
    "SONG: a .wav file (PCM 8/16/24/32-bit or float, WAVE_FORMAT_EXTENSIBLE, RF64); any other\n"
    "      format (mp3, ogg, flac, m4a, ...) goes through the optional `ffmpeg` command\n"
    "      (apt-get install ffmpeg).\n"
    "  -o PATH          write the JSON to PATH instead of stdout\n"
    "  --min-bpm N      lowest tempo reported (default 55)\n"
    "  --max-bpm N      highest tempo reported (default 215)\n"
    "  --prior-bpm N    where octave doubt resolves to (default 120)\n"
    "  --meter N        beats a bar (3, 4, ...) instead of detecting 3 or 4\n"
    "  --steady         the tempo does not change: one tempo for the whole song\n"
    "  --envelope       include the onset envelope (100 values a second, 0..1)\n"
    "A progress bar is drawn on stderr when it is a terminal. Exit status 0, 1 on bad input,\n"
    "2 on a usage error.\n";

static void draw(void *user, double done, double total) { cli_progress_draw(user, floor(done), floor(total)); }

static double round_to(double v, double unit) { return floor(v / unit + 0.5) * unit; }

static bool number_arg(const char *flag, const char *text, double lo, double hi, double *out) {
    if (!cli_parse_double(text, out) || *out < lo || *out > hi) {
        cli_fail("beats", "%s must be a number in %g..%g, got '%s'", flag, lo, hi, text);
        return false;
    }
    return true;
}

int cmd_beats(int argc, char **argv) {
    const char *in = NULL, *out = NULL;
    bool envelope = false;
    pm_beats_options o = {0};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        bool has_value = i + 1 < argc;
        double v;
        if (strcmp(a, "-o") == 0 && has_value) out = argv[++i];
        else if (strcmp(a, "--min-bpm") == 0 && has_value) {
            if (!number_arg(a, argv[++i], 30, 300, &o.min_bpm)) return 2;
        } else if (strcmp(a, "--max-bpm") == 0 && has_value) {
            if (!number_arg(a, argv[++i], 30, 300, &o.max_bpm)) return 2;
        } else if (strcmp(a, "--prior-bpm") == 0 && has_value) {
            if (!number_arg(a, argv[++i], 30, 300, &o.prior_bpm)) return 2;
        } else if (strcmp(a, "--meter") == 0 && has_value) {
            if (!number_arg(a, argv[++i], 2, 12, &v) || v != floor(v)) return cli_fail("beats", "--meter must be a whole number 2..12"), 2;
            o.beats_per_bar = (uint32_t)v;
        } else if (strcmp(a, "--steady") == 0) o.flags |= PM_BEATS_STEADY;
        else if (strcmp(a, "--envelope") == 0) envelope = true;
        else if (a[0] == '-' && a[1]) {
            cli_fail("beats", "unknown or incomplete option '%s' (see procmotion beats --help)", a);
            return 2;
        } else if (!in) in = a;
        else {
            cli_fail("beats", "more than one input ('%s')", a);
            return 2;
        }
    }
    if (!in) {
        cli_fail("beats", "expected SONG (see procmotion beats --help)");
        return 2;
    }
    pm_audio *audio = cli_read_audio("beats", in);
    if (!audio) return 1;
    pm_error err = {0};
    pm_result r;
    cli_progress prog;
    cli_progress_init(&prog, "beats", "s");
    o.progress = draw;
    o.progress_user = &prog;
    pm_beats *b = NULL;
    r = pm_beats_detect(audio->samples, audio->frame_count, audio->channels, audio->sample_rate, &o, &b, &err);
    if (r != PM_OK) {
        pm_audio_free(audio);
        return cli_fail("beats", "%s: %s", in, err.message);
    }
    cJSON *j = cJSON_CreateObject();
    cJSON_AddStringToObject(j, "file", in);
    cJSON_AddNumberToObject(j, "sampleRate", audio->sample_rate);
    cJSON_AddNumberToObject(j, "channels", audio->channels);
    cJSON_AddNumberToObject(j, "duration", round_to(b->duration, 1e-4));
    cJSON_AddNumberToObject(j, "bpm", round_to(b->bpm, 1e-3));
    cJSON_AddNumberToObject(j, "confidence", round_to(b->confidence, 1e-3));
    cJSON_AddNumberToObject(j, "offset", round_to(b->offset, 1e-4));
    cJSON_AddBoolToObject(j, "steady", b->steady);
    cJSON_AddNumberToObject(j, "beatsPerBar", b->beats_per_bar);
    cJSON *beats = cJSON_AddArrayToObject(j, "beats"), *bars = cJSON_AddArrayToObject(j, "barPositions");
    cJSON *downs = cJSON_AddArrayToObject(j, "downbeats");
    for (uint32_t i = 0; i < b->beat_count; i++) {
        cJSON_AddItemToArray(beats, cJSON_CreateNumber(round_to(b->beats[i], 1e-4)));
        cJSON_AddItemToArray(bars, cJSON_CreateNumber(b->bar_positions[i]));
        if (b->bar_positions[i] == 1) cJSON_AddItemToArray(downs, cJSON_CreateNumber(round_to(b->beats[i], 1e-4)));
    }
    cJSON *curve = cJSON_AddArrayToObject(j, "tempoCurve");
    for (uint32_t i = 0; i < b->tempo_point_count; i++) {
        cJSON *p = cJSON_CreateObject();
        cJSON_AddNumberToObject(p, "time", round_to(b->tempo_curve[i].time, 1e-4));
        cJSON_AddNumberToObject(p, "bpm", round_to(b->tempo_curve[i].bpm, 1e-3));
        cJSON_AddItemToArray(curve, p);
    }
    cJSON_AddNumberToObject(j, "onsetRate", b->onset_rate);
    if (envelope) {
        cJSON *e = cJSON_AddArrayToObject(j, "onsetEnvelope");
        for (uint32_t i = 0; i < b->onset_count; i++) cJSON_AddItemToArray(e, cJSON_CreateNumber(round_to(b->onset_envelope[i], 1e-4)));
    }
    pm_beats_free(b);
    pm_audio_free(audio);
    int rc = 0;
    if (out) {
        char *text = cJSON_Print(j);
        cJSON_Delete(j);
        if (!text) return cli_fail("beats", "out of memory writing JSON");
        size_t len = strlen(text);
        text[len] = '\n';
        rc = cli_write_file(out, (const uint8_t *)text, len + 1) ? 0 : 1;
        free(text);
    } else {
        cli_print_json(j);
    }
    return rc;
}

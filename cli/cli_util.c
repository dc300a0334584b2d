/* File, error and JSON helpers for the CLI commands. The CLI, unlike the core, may use stdio. */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"
#include "procmotion/pmx.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <spawn.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

uint8_t *cli_read_file(const char *path, size_t *size) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "procmotion: cannot read %s: %s\n", path, strerror(errno));
        return NULL;
    }
    size_t cap = 1 << 16, n = 0;
    uint8_t *buf = malloc(cap);
    for (;;) {
        if (n == cap) {
            cap *= 2;
            uint8_t *grown = realloc(buf, cap);
            if (!grown) {
                free(buf);
                fclose(f);
                fprintf(stderr, "procmotion: %s is too large to read\n", path);
                return NULL;
            }
            buf = grown;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0) break;
    }
    bool bad = ferror(f);
    fclose(f);
    if (bad) {
        free(buf);
        fprintf(stderr, "procmotion: cannot read %s\n", path);
        return NULL;
    }
    *size = n;
    return buf;
}

bool cli_read_skeleton(const char *cmd, const char *path, pm_skeleton **out) {
    size_t size = 0;
    uint8_t *data = cli_read_file(path, &size);
    if (!data) return false;
    pm_error err = {0};
    pm_result r = pm_model_read(data, size, NULL, out, &err);
    free(data);
    if (r != PM_OK) return cli_fail(cmd, "%s: %s", path, err.message), false;
    const pm_model_info *info = &(*out)->source;
    for (uint32_t w = 0; w < info->warning_count && w < PM_MODEL_MAX_WARNINGS; w++)
        fprintf(stderr, "procmotion %s: warning: %s: %s\n", cmd, path, info->warnings[w].data);
    return true;
}

bool cli_write_file(const char *path, const uint8_t *data, size_t size) {
    bool to_stdout = strcmp(path, "-") == 0;
    FILE *f = to_stdout ? stdout : fopen(path, "wb");
    if (!f) {
        fprintf(stderr, "procmotion: cannot write %s: %s\n", path, strerror(errno));
        return false;
    }
    bool ok = fwrite(data, 1, size, f) == size;
    if (!to_stdout) ok = (fclose(f) == 0) && ok;
    else ok = fflush(f) == 0 && ok;
    if (!ok) fprintf(stderr, "procmotion: cannot write %s\n", path);
    return ok;
}

int cli_fail(const char *cmd, const char *fmt, ...) {
    fprintf(stderr, "procmotion %s: ", cmd);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return 1;
}

int cli_fail_error(const char *cmd, const pm_error *err) { return cli_fail(cmd, "%s", err->message); }

void cli_print_json(cJSON *json) {
    char *text = cJSON_Print(json);
    if (text) {
        fputs(text, stdout);
        fputc('\n', stdout);
        free(text);
    }
    cJSON_Delete(json);
}

void cli_print_summary(cJSON *json, const char *output) {
    if (output && strcmp(output, "-") == 0) {
        char *text = cJSON_Print(json);
        if (text) fprintf(stderr, "%s\n", text);
        free(text);
        cJSON_Delete(json);
    } else {
        cli_print_json(json);
    }
}

int cli_write_vmd_summary(const char *cmd, const char *output, const pm_vmd *vmd, cJSON *summary) {
    pm_error err = {0};
    size_t size = 0;
    uint8_t *bytes = NULL;
    int rc = 1;
    if (!summary) rc = cli_fail(cmd, "out of memory");
    else if (pm_vmd_write(vmd, NULL, 0, &size, &err) != PM_OK || !(bytes = malloc(size ? size : 1)) ||
             pm_vmd_write(vmd, bytes, size, &size, &err) != PM_OK)
        rc = err.type ? cli_fail_error(cmd, &err) : cli_fail(cmd, "out of memory");
    else if (cli_write_file(output, bytes, size)) {
        cJSON_AddStringToObject(summary, "output", output);
        cJSON_AddNumberToObject(summary, "bytes", (double)size);
        cli_print_summary(summary, output);
        summary = NULL;
        rc = 0;
    }
    cJSON_Delete(summary);
    free(bytes);
    return rc;
}

bool cli_is_help(const char *arg) { return strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0; }

bool cli_parse_double(const char *text, double *out) {
    char *end = NULL;
    errno = 0;
    double v = strtod(text, &end);
    if (end == text || *end != '\0' || errno == ERANGE) return false;
    *out = v;
    return true;
}

bool cli_ends_with(const char *s, const char *suffix) {
    size_t n = strlen(s), m = strlen(suffix);
    if (n < m) return false;
    for (size_t i = 0; i < m; i++) {
        char a = s[n - m + i], b = suffix[i];
        if (a >= 'A' && a <= 'Z') a = (char)(a - 'A' + 'a');
        if (a != b) return false;
    }
    return true;
}

bool cli_on_path(const char *name) {
    const char *path = getenv("PATH");
    if (!path) return false;
    char buf[4096];
    while (*path) {
        const char *colon = strchr(path, ':');
        size_t n = colon ? (size_t)(colon - path) : strlen(path);
        if (n && n + strlen(name) + 2 < sizeof buf) {
            memcpy(buf, path, n);
            buf[n] = '/';
            strcpy(buf + n + 1, name);
            if (access(buf, X_OK) == 0) return true;
        }
        path += n + (colon ? 1 : 0);
    }
    return false;
}

void cli_progress_init(cli_progress *p, const char *label, const char *unit) {
    p->label = label;
    p->unit = unit;
    p->tty = isatty(STDERR_FILENO) != 0;
    p->last = -1;
}

void cli_progress_draw(cli_progress *p, double done, double total) {
    if (!p->tty || !(total > 0)) return;
    int pct = (int)(done * 100 / total);
    if (pct > 100) pct = 100;
    if (pct == p->last && done < total) return;
    p->last = pct;
    char bar[41];
    int fill = pct * 40 / 100;
    for (int i = 0; i < 40; i++) bar[i] = i < fill ? '#' : '.';
    bar[40] = 0;
    fprintf(stderr, "\r%s [%s] %3d%% %.0f/%.0f %s", p->label, bar, pct, done, total, p->unit);
    if (done >= total) fputs("\n", stderr);
    fflush(stderr);
}

bool cli_read_grid(const char *cmd, const char *beats_path, const char *offset_arg, double bpm, pm_beat_grid *grid,
                   double **storage) {
    memset(grid, 0, sizeof *grid);
    *storage = NULL;
    double offset = 0;
    if (offset_arg && !cli_parse_double(offset_arg, &offset)) return cli_fail(cmd, "--offset must be seconds, got '%s'", offset_arg), false;
    if (!beats_path) {
        if (!offset_arg) return true;
        if (!(bpm > 0)) return cli_fail(cmd, "--offset needs --bpm (or --beats)"), false;
        *grid = pm_beat_grid_from_bpm(bpm, offset);
        return true;
    }
    size_t size = 0;
    uint8_t *text = cli_read_file(beats_path, &size);
    if (!text) return false;
    cJSON *j = cJSON_ParseWithLength((const char *)text, size);
    free(text);
    bool ok = false;
    const cJSON *b = j ? cJSON_GetObjectItemCaseSensitive(j, "beats") : NULL, *tempo = j ? cJSON_GetObjectItemCaseSensitive(j, "bpm") : NULL;
    if (!cJSON_IsObject(j)) {
        cli_fail(cmd, "%s: not a JSON object (the output of `procmotion beats`)", beats_path);
    } else if (cJSON_IsArray(b) && cJSON_GetArraySize(b) >= 2) {
        int n = cJSON_GetArraySize(b);
        const cJSON *bars = cJSON_GetObjectItemCaseSensitive(j, "barPositions"), *per = cJSON_GetObjectItemCaseSensitive(j, "beatsPerBar");
        double *beats = malloc(sizeof(double) * (size_t)n);
        ok = beats != NULL;
        if (!ok) cli_fail(cmd, "out of memory for %d beats", n);
        int i = 0;
        for (const cJSON *x = b->child; ok && x; x = x->next, i++) {
            if (!cJSON_IsNumber(x)) ok = false, cli_fail(cmd, "%s: beats[%d] is not a number", beats_path, i);
            else beats[i] = x->valuedouble + offset;
        }
        if (ok) {
            grid->bpm = cJSON_IsNumber(tempo) && tempo->valuedouble > 0 ? tempo->valuedouble : 60.0 * (n - 1) / (beats[n - 1] - beats[0]);
            grid->offset = beats[0];
            grid->beats = beats;
            grid->beat_count = (uint32_t)n;
            grid->beats_per_bar = cJSON_IsNumber(per) && per->valuedouble >= 1 && per->valuedouble <= 64 ? (uint32_t)per->valuedouble : 4;
            int k = 0;
            for (const cJSON *x = cJSON_IsArray(bars) ? bars->child : NULL; x; x = x->next, k++)
                if (cJSON_IsNumber(x) && x->valuedouble == 1) {
                    grid->first_downbeat = (uint32_t)k;
                    break;
                }
            *storage = beats;
        } else {
            free(beats);
        }
    } else if (cJSON_IsNumber(tempo)) {
        const cJSON *off = cJSON_GetObjectItemCaseSensitive(j, "offset");
        *grid = pm_beat_grid_from_bpm(tempo->valuedouble, (cJSON_IsNumber(off) ? off->valuedouble : 0) + offset);
        ok = true;
    } else {
        cli_fail(cmd, "%s: no \"beats\" (two or more) and no \"bpm\"", beats_path);
    }
    cJSON_Delete(j);
    pm_error err = {0};
    if (ok && pm_beat_grid_check(grid, &err) != PM_OK) ok = false, cli_fail(cmd, "%s: %s", beats_path, err.message);
    if (!ok) free(*storage), *storage = NULL, memset(grid, 0, sizeof *grid);
    return ok;
}

const cli_amount_flag *cli_find_amount(const cli_amount_flag *table, size_t n, const char *flag) {
    for (size_t k = 0; k < n; k++)
        if (strcmp(flag, table[k].flag) == 0) return &table[k];
    return NULL;
}

void cli_merge_amounts(const cli_amount_flag *table, size_t n, const void *flags, void *params) {
    for (size_t k = 0; k < n; k++) {
        const pm_amount *v = (const pm_amount *)((const char *)flags + table[k].offset);
        if (v->set) *(pm_amount *)((char *)params + table[k].offset) = *v;
    }
}

/* Any audio file -> WAV bytes (32-bit float) through `ffmpeg ... -f wav -` on a pipe. */
static uint8_t *via_ffmpeg(const char *cmd, const char *in, size_t *size) {
    if (!cli_on_path("ffmpeg")) {
        cli_fail(cmd, "%s: reading this format needs the ffmpeg command: apt-get install ffmpeg (or convert it to .wav)", in);
        return NULL;
    }
    int fds[2];
    if (pipe(fds) != 0) {
        cli_fail(cmd, "cannot create a pipe: %s", strerror(errno));
        return NULL;
    }
    char *argv[] = {"ffmpeg", "-nostdin", "-v", "error", "-i", (char *)in, "-vn", "-f", "wav", "-acodec", "pcm_f32le", "-", NULL};
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, fds[1], STDOUT_FILENO);
    posix_spawn_file_actions_addclose(&fa, fds[0]);
    pid_t pid;
    int rc = posix_spawnp(&pid, "ffmpeg", &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(fds[1]);
    if (rc != 0) {
        close(fds[0]);
        cli_fail(cmd, "cannot run ffmpeg: %s", strerror(rc));
        return NULL;
    }
    size_t cap = 1 << 20, n = 0;
    uint8_t *buf = malloc(cap);
    bool ok = buf != NULL;
    while (ok) {
        if (n == cap) {
            uint8_t *grown = cap < ((size_t)1 << 31) ? realloc(buf, cap * 2) : NULL;
            if (!grown) {
                ok = false;
                break;
            }
            buf = grown, cap *= 2;
        }
        ssize_t got = read(fds[0], buf + n, cap - n);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) break;
        n += (size_t)got;
    }
    close(fds[0]);
    int status = -1;
    waitpid(pid, &status, 0);
    if (!ok || !WIFEXITED(status) || WEXITSTATUS(status) != 0 || n == 0) {
        free(buf);
        cli_fail(cmd, "%s: ffmpeg could not decode it (exit status %d)", in, WIFEXITED(status) ? WEXITSTATUS(status) : -1);
        return NULL;
    }
    *size = n;
    return buf;
}

pm_audio *cli_read_audio(const char *cmd, const char *path) {
    size_t size = 0;
    uint8_t *data = cli_ends_with(path, ".wav") || cli_ends_with(path, ".wave") ? cli_read_file(path, &size) : via_ffmpeg(cmd, path, &size);
    if (!data) return NULL;
    pm_error err = {0};
    pm_audio *audio = NULL;
    pm_result r = pm_wav_read(data, size, NULL, &audio, &err);
    free(data);
    if (r != PM_OK) cli_fail(cmd, "%s: %s", path, err.message);
    return r == PM_OK ? audio : NULL;
}

/* procmotion CLI: shared helpers and the command table. Each command lives in cli/cmd_<name>.c. */
#ifndef PROCMOTION_CLI_H
#define PROCMOTION_CLI_H

#include "procmotion/audio.h"
#include "procmotion/beats.h"
#include "procmotion/common.h"
#include "procmotion/skeleton.h"
#include "procmotion/vmd.h"

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct cli_command {
    const char *name;
    const char *summary; /* one line for `procmotion --help` */
    const char *usage;   /* full help for `procmotion NAME --help` */
    int (*run)(int argc, char **argv); /* argv[0] is the command name */
} cli_command;

/* Read a whole file. Returns NULL (and prints "procmotion: cannot read PATH: reason") on failure. */
uint8_t *cli_read_file(const char *path, size_t *size);
/* Read a PMX/PMD model's skeleton into *out (the caller frees it with pm_skeleton_free). Returns false
 * after printing "procmotion: cannot read PATH: reason" or "procmotion CMD: PATH: message". */
bool cli_read_skeleton(const char *cmd, const char *path, pm_skeleton **out);
/* Write a VMD to `output` ("-" = stdout), then print `summary` (taken; NULL: out of memory) with output and
 * bytes added, as cli_print_summary. Returns the exit status (0, or 1 after printing the error). */
int cli_write_vmd_summary(const char *cmd, const char *output, const pm_vmd *vmd, cJSON *summary);
/* Write bytes to a file ("-" = stdout). Returns false after printing an error. */
bool cli_write_file(const char *path, const uint8_t *data, size_t size);
/* Print "procmotion CMD: message" to stderr and return 1 (the exit status for bad input). */
int cli_fail(const char *cmd, const char *fmt, ...);
/* Print a pm_error as "procmotion CMD: message" and return 1. */
int cli_fail_error(const char *cmd, const pm_error *err);
/* Print JSON to stdout (pretty) and free it. */
void cli_print_json(cJSON *json);
/* The summary of a command that wrote `output`: cli_print_json, or to stderr when the file went to
 * stdout ("-"). Frees it. */
void cli_print_summary(cJSON *json, const char *output);
/* True when argv[i] is -h or --help. */
bool cli_is_help(const char *arg);
/* Parse a finite double; false when the text is not a number. */
bool cli_parse_double(const char *text, double *out);
/* Whether s ends with the lower-case suffix, ignoring ASCII case (".WAV" ends with ".wav"). */
bool cli_ends_with(const char *s, const char *suffix);
/* Whether `name` is an executable file in a PATH directory. */
bool cli_on_path(const char *name);

/* Read a song: a .wav directly, any other format through the optional ffmpeg command. NULL after
 * printing an error. Free it with pm_audio_free. */
pm_audio *cli_read_audio(const char *cmd, const char *path);

/* The beat grid of --beats FILE (the JSON `procmotion beats` prints: its beats, bpm, beatsPerBar and
 * barPositions; or an object with only bpm and offset) and --offset SECONDS (shifts a file's beats, or
 * with no file makes a plain grid of `bpm` with that offset; `bpm` 0 then fails). Neither given: *grid
 * zeroed (no grid). *storage receives the beats (free() it). Returns false after printing an error. */
bool cli_read_grid(const char *cmd, const char *beats_path, const char *offset_arg, double bpm, pm_beat_grid *grid,
                   double **storage);

/* Amount flags (--hip-sway 0.8): a table of flag names and where the pm_amount sits in a parameter
 * struct. cli_find_amount: the entry for `flag`, or NULL. cli_merge_amounts: every amount set in `flags`
 * copied over `params` (flags override a parameter file). */
typedef struct cli_amount_flag {
    const char *flag;
    size_t offset;
} cli_amount_flag;
const cli_amount_flag *cli_find_amount(const cli_amount_flag *table, size_t n, const char *flag);
void cli_merge_amounts(const cli_amount_flag *table, size_t n, const void *flags, void *params);

/* A progress bar on stderr, drawn only when stderr is a terminal: "LABEL [####....] 42% 10/24 UNIT". */
typedef struct cli_progress {
    const char *label, *unit;
    bool tty;
    int last;
} cli_progress;
void cli_progress_init(cli_progress *p, const char *label, const char *unit);
/* Redraw when the percentage changed; a newline once done >= total. */
void cli_progress_draw(cli_progress *p, double done, double total);

extern const cli_command cli_commands[];
extern const size_t cli_command_count;

/* The commands (cli/cmd_<name>.c), listed in cli_commands (main.c). */
#define CLI_COMMAND(name)                 \
    int cmd_##name(int argc, char **argv); \
    extern const char cmd_##name##_usage[]
CLI_COMMAND(inspect);
CLI_COMMAND(catwalk);
CLI_COMMAND(idle);
CLI_COMMAND(dance);
CLI_COMMAND(lifelike);
CLI_COMMAND(transition);
CLI_COMMAND(retarget);
CLI_COMMAND(keypoints);
CLI_COMMAND(score);
CLI_COMMAND(humanoid);
CLI_COMMAND(mannequin);
CLI_COMMAND(pose);
CLI_COMMAND(groove);
CLI_COMMAND(trace);
CLI_COMMAND(rig);
CLI_COMMAND(vrm);
CLI_COMMAND(beats);
#undef CLI_COMMAND

#endif

/* procmotion: command-line front end of the motion core. */
#include "cli.h"

#include <stdio.h>
#include <string.h>

const cli_command cli_commands[] = {
    {"inspect", "print a JSON summary of a VMD, or a PMX/PMD model's skeleton", cmd_inspect_usage, cmd_inspect},
    {"humanoid", "map a model's bones (PMX, PMD, glTF, VRM, BVH) to the 22 humanoid bones", cmd_humanoid_usage, cmd_humanoid},
    {"rig", "analyse a model's rig: bone roles, IK chains, rest geometry and reach (JSON)", cmd_rig_usage, cmd_rig},
    {"vrm", "convert a PMX/PMD model to VRM 1.0 (humanoid, T-pose, textures, expressions)", cmd_vrm_usage, cmd_vrm},
    {"pose", "evaluate a VMD on a model: bone world positions as JSON", cmd_pose_usage, cmd_pose},
    {"mannequin", "write the built-in mannequin model (PMX 2.0)", cmd_mannequin_usage, cmd_mannequin},
    {"catwalk", "write a procedural runway walk (looping VMD)", cmd_catwalk_usage, cmd_catwalk},
    {"idle", "write a character standing at ease (looping VMD)", cmd_idle_usage, cmd_idle},
    {"dance", "write a dance to a song or a tempo (VMD)", cmd_dance_usage, cmd_dance},
    {"lifelike", "bake blinks, breathing, gaze and micro-moves over a VMD", cmd_lifelike_usage, cmd_lifelike},
    {"transition", "bake the blend from one motion into another (no pop)", cmd_transition_usage, cmd_transition},
    {"retarget", "play a BVH, FBX, glTF or VRM Animation motion on an MMD model", cmd_retarget_usage, cmd_retarget},
    {"keypoints", "convert BVH/VMD/glTF/FBX motion to MediaPipe Pose 33 keypoints (NDJSON, binary)", cmd_keypoints_usage,
     cmd_keypoints},
    {"score", "score a dance against a reference motion (keypoints, DTW; JSON)", cmd_score_usage, cmd_score},
    {"trace", "bake a tracing timeline (JSON) to a VMD for a model", cmd_trace_usage, cmd_trace},
    {"groove", "bake the BPM groove (joint oscillation, squat bounce) into a VMD", cmd_groove_usage, cmd_groove},
    {"beats", "detect the tempo, beats and downbeats of music (WAV; other formats through ffmpeg)", cmd_beats_usage, cmd_beats},
};
const size_t cli_command_count = sizeof cli_commands / sizeof cli_commands[0];

static void usage(FILE *out) {
    fprintf(out, "procmotion %s: procedural motion for MMD models\n\nusage: procmotion COMMAND [options]\n\ncommands:\n",
            PM_VERSION_STRING);
    for (size_t i = 0; i < cli_command_count; i++) fprintf(out, "  %-10s %s\n", cli_commands[i].name, cli_commands[i].summary);
    fprintf(out, "\n`procmotion COMMAND --help` describes a command. Exit status: 0 on success, 1 on bad input,\n"
                 "2 on a usage error.\n");
}

int main(int argc, char **argv) {
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (cli_is_help(argv[1]) || strcmp(argv[1], "help") == 0) {
        usage(stdout);
        return 0;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("procmotion %s\n", PM_VERSION_STRING);
        return 0;
    }
    for (size_t i = 0; i < cli_command_count; i++) {
        if (strcmp(argv[1], cli_commands[i].name) != 0) continue;
        for (int a = 2; a < argc; a++)
            if (cli_is_help(argv[a])) {
                fputs(cli_commands[i].usage, stdout);
                return 0;
            }
        return cli_commands[i].run(argc - 1, argv + 1);
    }
    fprintf(stderr, "procmotion: unknown command '%s' (see procmotion --help)\n", argv[1]);
    return 2;
}

/* Rows added by modules (each in bench/bench_<module>.c). Keep one line per row. */
#include "bench.h"

int bench_catwalk(int argc, char **argv);
int bench_row_keypoints(int argc, char **argv);
int bench_pose(int argc, char **argv);
int bench_two_bone_ik(int argc, char **argv);
int bench_pose_hash(int argc, char **argv);
int bench_keypoints_hash(int argc, char **argv);

const bench_row bench_extra_rows[] = {
    {"catwalk", bench_catwalk},
    {"keypoints", bench_row_keypoints},
    {"pose", bench_pose},
    {"two-bone-ik", bench_two_bone_ik},
    {"pose-hash", bench_pose_hash},
    {"keypoints-hash", bench_keypoints_hash},
};
const size_t bench_extra_row_count = sizeof bench_extra_rows / sizeof bench_extra_rows[0];

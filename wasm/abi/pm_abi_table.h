/* The wasm interface, described once.
 *
 * Everything the JS glue (js-glue/) must agree on with the exported C functions is listed here and
 * nowhere else:
 *   PM_ABI_MODULES   the wasm modules the Emscripten build is split into, in load order (core first)
 *   PM_ABI_EXPORTS   every exported function and the module whose .wasm holds it
 *   PM_ABI_LAYOUTS   every buffer of slots a call reads or fills: per slot a name and how many values
 *   PM_ABI_ENUMS     every enum or flag set that crosses the boundary as a number
 *   PM_ABI_RESULTS   the pm_result names, for ProcMotionError.code
 * The C sources build their slot enums from these lists (PM_ABI_SLOT_ENUM below) and check the enum
 * values against the core's own enums (PM_ABI_CHECK_ENUM). build-scripts/link-wasm.mjs runs the
 * preprocessor over pm_abi_manifest.json.c, which expands these lists into JSON; from that it writes
 * js-glue/dist/abi.js and abi-<module>.js (the only place the glue takes slot offsets and enum values
 * from: each module's layouts and enums in its own file, so a bundle of the core carries only the
 * core's; the layouts tagged `runtime`, which js-glue/runtime.js reads for every module, in
 * abi-runtime.js) and the export lists the wasm links use. tests/node/package.test.mjs checks that the wasm
 * builds export exactly the functions listed here.
 *
 * Adding an export: write the PM_EXPORT function in an abi_*.c file, add one X(module, name) line to
 * PM_ABI_EXPORTS, and (if it fills or reads a buffer) a layout; DEVELOPERS.md, "Adding an export".
 *
 * Each list takes the macro to expand (X) and a prefix (P) handed back to it, so one list can make a
 * C enum (prefix D_ gives D_VERSION, D_SECTIONS, ...) and a JSON object alike.
 */
#ifndef PROCMOTION_ABI_TABLE_H
#define PROCMOTION_ABI_TABLE_H

/* ---- modules --------------------------------------------------------------------------------- */

/* X(P, module): core is loaded by createProcMotion; the others by pm.loadAsync(module). */
#define PM_ABI_MODULES(X, P) X(P, core) X(P, motion) X(P, keypoints) X(P, beats) X(P, vrm)

/* ---- exports --------------------------------------------------------------------------------- */

/* X(P, module, function) */
#define PM_ABI_EXPORTS(X, P)                                                                                  \
    /* memory, version (abi_common.c) */                                                                      \
    X(P, core, pm_abi_alloc) X(P, core, pm_abi_free) X(P, core, pm_abi_version) X(P, core, pm_abi_heap_in_use) \
    /* VMD (abi_vmd.c): files in and out in one call each; handles for pose and groove are motion's */       \
    X(P, core, pm_abi_vmd_read_packed) X(P, core, pm_abi_vmd_write)                                           \
    X(P, motion, pm_abi_vmd_descriptor_slots) X(P, motion, pm_abi_vmd_read) X(P, motion, pm_abi_vmd_free)      \
    X(P, motion, pm_abi_vmd_describe)                                                                         \
    /* Shift-JIS (abi_text.c) */                                                                              \
    X(P, core, pm_abi_sjis_encode) X(P, core, pm_abi_sjis_decode) X(P, core, pm_abi_sjis_table)               \
    /* catwalk (abi_catwalk.c): the core's walks are not landed; motion's lands (the standard figure, a     \
       skeleton: the mannequin's skeleton, the rig analysis, the MMD-exact evaluator and IK are motion's) */ \
    X(P, core, pm_abi_catwalk_descriptor_slots) X(P, core, pm_abi_catwalk_generate)                           \
    X(P, motion, pm_abi_catwalk_generate_landed)                                                              \
    /* two-bone IK (abi_pose.c) */                                                                            \
    X(P, motion, pm_abi_two_bone_ik)                                                                          \
    /* models and skeletons (abi_model.c) */                                                                  \
    X(P, motion, pm_abi_model_read_json) X(P, motion, pm_abi_skeleton_from_json)                              \
    X(P, motion, pm_abi_skeleton_from_model) X(P, motion, pm_abi_skeleton_free)                               \
    X(P, motion, pm_abi_skeleton_bone_count) X(P, motion, pm_abi_skeleton_to_json)                            \
    X(P, motion, pm_abi_humanoid_map) X(P, motion, pm_abi_humanoid_map_skeleton)                              \
    X(P, motion, pm_abi_mannequin_pmx)                                                                        \
    /* the rig analysis (abi_rig.c) */                                                                        \
    X(P, motion, pm_abi_rig_json)                                                                             \
    /* pose evaluation (abi_pose.c) */                                                                        \
    X(P, motion, pm_abi_pose_free) X(P, motion, pm_abi_pose_create) X(P, motion, pm_abi_pose_info)            \
    X(P, motion, pm_abi_pose_unmatched) X(P, motion, pm_abi_pose_world) X(P, motion, pm_abi_pose_rotations)   \
    X(P, motion, pm_abi_pose_translations) X(P, motion, pm_abi_pose_final_rotations)                          \
    X(P, motion, pm_abi_pose_final_translations) X(P, motion, pm_abi_pose_sample)                             \
    X(P, motion, pm_abi_pose_evaluate_local) X(P, motion, pm_abi_pose_evaluate)                               \
    X(P, motion, pm_abi_pose_positions) X(P, motion, pm_abi_pose_set_ik_mode)                                 \
    X(P, motion, pm_abi_pose_ik_enabled)                                                                      \
    /* groove (abi_groove.c) */                                                                               \
    X(P, motion, pm_abi_groove_config) X(P, motion, pm_abi_groove_free) X(P, motion, pm_abi_groove_create)    \
    X(P, motion, pm_abi_groove_set_config) X(P, motion, pm_abi_groove_info)                                   \
    X(P, motion, pm_abi_groove_rotations) X(P, motion, pm_abi_groove_translations)                            \
    X(P, motion, pm_abi_groove_output) X(P, motion, pm_abi_groove_world) X(P, motion, pm_abi_groove_offsets)  \
    X(P, motion, pm_abi_groove_preview_step) X(P, motion, pm_abi_groove_preview_stop)                         \
    X(P, motion, pm_abi_groove_reset_anchors) X(P, motion, pm_abi_groove_set_ik_mode)                         \
    X(P, motion, pm_abi_groove_bake) X(P, motion, pm_abi_groove_bake_json) X(P, motion, pm_abi_groove_set_grid) \
    /* tracing (abi_tracing.c) */                                                                             \
    X(P, motion, pm_abi_trajectory_sample) X(P, motion, pm_abi_trajectory_length)                             \
    X(P, motion, pm_abi_timeline_free) X(P, motion, pm_abi_timeline_create)                                   \
    X(P, motion, pm_abi_timeline_from_json) X(P, motion, pm_abi_timeline_to_json)                             \
    X(P, motion, pm_abi_timeline_keyframe_json) X(P, motion, pm_abi_timeline_bpm)                             \
    X(P, motion, pm_abi_timeline_set_bpm) X(P, motion, pm_abi_timeline_keyframe_count)                        \
    X(P, motion, pm_abi_timeline_keyframe_beat) X(P, motion, pm_abi_timeline_next_trace_id)                   \
    X(P, motion, pm_abi_timeline_set_keyframe_json) X(P, motion, pm_abi_timeline_capture_keyframe)            \
    X(P, motion, pm_abi_timeline_remove_keyframe) X(P, motion, pm_abi_timeline_clear)                         \
    X(P, motion, pm_abi_timeline_set_trajectory) X(P, motion, pm_abi_timeline_trajectory)                     \
    X(P, motion, pm_abi_timeline_default_pole) X(P, motion, pm_abi_timeline_generate)                         \
    X(P, motion, pm_abi_timeline_evaluate) X(P, motion, pm_abi_timeline_world)                                \
    X(P, motion, pm_abi_timeline_rotations) X(P, motion, pm_abi_timeline_translations)                        \
    X(P, motion, pm_abi_timeline_final_rotations) X(P, motion, pm_abi_timeline_trace_state)                   \
    X(P, motion, pm_abi_timeline_bake_plan)                                \
    X(P, motion, pm_abi_timeline_set_grid)                                                                    \
    /* idle, the lifelike layer (abi_idle.c, abi_lifelike.c) */                                               \
    X(P, motion, pm_abi_idle_generate)                                                                        \
    X(P, motion, pm_abi_dance_generate)                                                                       \
    X(P, motion, pm_abi_lifelike_settings) X(P, motion, pm_abi_lifelike_create) X(P, motion, pm_abi_lifelike_free) \
    X(P, motion, pm_abi_lifelike_info) X(P, motion, pm_abi_lifelike_sample) X(P, motion, pm_abi_lifelike_bake)   \
    /* transitions (abi_transition.c) */                                                                      \
    X(P, motion, pm_abi_transition_bake)                                                                      \
    /* keypoints (abi_keypoints.c) */                                                                         \
    X(P, keypoints, pm_abi_kp_descriptor_slots) X(P, keypoints, pm_abi_kp_point_name)                         \
    X(P, keypoints, pm_abi_kp_angle_name) X(P, keypoints, pm_abi_kp_from_data) X(P, keypoints, pm_abi_kp_make) \
    X(P, keypoints, pm_abi_kp_free) X(P, keypoints, pm_abi_kp_describe) X(P, keypoints, pm_abi_kp_encode)      \
    /* retargeting (abi_retarget.c): the motion readers are keypoints', the evaluator and landing motion's */   \
    X(P, keypoints, pm_abi_retarget)                                                                          \
    /* dance scoring (abi_scoring.c) */                                                                       \
    X(P, keypoints, pm_abi_score_part_name) X(P, keypoints, pm_abi_score_dance)                               \
    X(P, keypoints, pm_abi_score_describe) X(P, keypoints, pm_abi_score_free)                                 \
    X(P, keypoints, pm_abi_score_stream_new) X(P, keypoints, pm_abi_score_stream_push)                        \
    X(P, keypoints, pm_abi_score_stream_free)                                                                 \
    /* beat tracking, the beat grid, tap tempo and WAV (abi_beats.c) */                                       \
    X(P, beats, pm_abi_beats_create) X(P, beats, pm_abi_beats_push) X(P, beats, pm_abi_beats_now)             \
    X(P, beats, pm_abi_beats_free) X(P, beats, pm_abi_beats_finish) X(P, beats, pm_abi_beat_grid_eval)        \
    X(P, beats, pm_abi_beat_grid_from_taps) X(P, beats, pm_abi_wav_read) X(P, beats, pm_abi_wav_write)          \
    /* PMX/PMD to VRM 1.0 (abi_vrm.c) */                                                                      \
    X(P, vrm, pm_abi_vrm_from_model)

/* ---- layouts: X(P, NAME, values) per slot, in order; a slot's index is the sum of the values before it */

/* The host's error buffer (bytes): the message, NUL-terminated UTF-8, then the pm_result as int32. */
#define PM_ABI_LAYOUT_ERROR(X, P) X(P, MESSAGE, 252) X(P, CODE, 4)

/* pm_abi_vmd_describe / pm_abi_vmd_read_packed / pm_abi_vmd_write descriptor (uint32 each). A name
 * slot pair is {count, table}: describe gives {uint32 utf8_offset, uint32 byte_length} per name; write
 * takes count + 1 byte offsets into a UTF-8 blob followed by the blob's address. */
#define PM_ABI_LAYOUT_VMD(X, P)                                                                            \
    X(P, VERSION, 1) X(P, SECTIONS, 1) X(P, MODEL_NAME, 1) X(P, MODEL_NAME_LEN, 1)                          \
    X(P, BONE_NAMES, 1) X(P, BONE_NAMES_PTR, 1) X(P, MORPH_NAMES, 1) X(P, MORPH_NAMES_PTR, 1)               \
    X(P, IK_NAMES, 1) X(P, IK_NAMES_PTR, 1)                                                                 \
    X(P, BONES, 1) X(P, BONE_NAME_INDEX, 1) X(P, BONE_FRAME, 1) X(P, BONE_POSITION, 1)                      \
    X(P, BONE_ROTATION, 1) X(P, BONE_INTERP, 1)                                                             \
    X(P, MORPHS, 1) X(P, MORPH_NAME_INDEX, 1) X(P, MORPH_FRAME, 1) X(P, MORPH_WEIGHT, 1)                    \
    X(P, CAMERAS, 1) X(P, CAMERA_FRAME, 1) X(P, CAMERA_DISTANCE, 1) X(P, CAMERA_POSITION, 1)                \
    X(P, CAMERA_ROTATION, 1) X(P, CAMERA_INTERP, 1) X(P, CAMERA_FOV, 1) X(P, CAMERA_PERSPECTIVE, 1)         \
    X(P, LIGHTS, 1) X(P, LIGHT_FRAME, 1) X(P, LIGHT_COLOR, 1) X(P, LIGHT_DIRECTION, 1)                      \
    X(P, SHADOWS, 1) X(P, SHADOW_FRAME, 1) X(P, SHADOW_MODE, 1) X(P, SHADOW_DISTANCE, 1)                    \
    X(P, PROPS, 1) X(P, PROP_FRAME, 1) X(P, PROP_VISIBLE, 1) X(P, PROP_IK_START, 1) X(P, PROP_IK_COUNT, 1)  \
    X(P, PROP_IK_NAME_INDEX, 1) X(P, PROP_IK_ENABLED, 1)                                                    \
    /* pm_abi_vmd_read_packed only: the block's size; the model name and every name of the three tables \
       joined by NUL (offset, byte length) */                                                               \
    X(P, PACKED_SIZE, 1) X(P, TEXT, 1) X(P, TEXT_BYTES, 1)                                                  \
    /* what the file held beyond its content (vmd.h): the 30 header bytes, the 20-byte model-name field,    \
       the bytes after the last section; per name table its fields (count x width bytes) and its            \
       variants (count, ascending key indices, count x width bytes) */                                      \
    X(P, HEADER, 1) X(P, MODEL_FIELD, 1) X(P, TRAILING, 1) X(P, TRAILING_SIZE, 1)                           \
    X(P, BONE_FIELDS, 1) X(P, BONE_VARIANTS, 1) X(P, BONE_VARIANT_KEYS, 1) X(P, BONE_VARIANT_FIELDS, 1)     \
    X(P, MORPH_FIELDS, 1) X(P, MORPH_VARIANTS, 1) X(P, MORPH_VARIANT_KEYS, 1)                               \
    X(P, MORPH_VARIANT_FIELDS, 1)                                                                           \
    X(P, IK_FIELDS, 1) X(P, IK_VARIANTS, 1) X(P, IK_VARIANT_KEYS, 1) X(P, IK_VARIANT_FIELDS, 1)             \
    /* pm_abi_vmd_write only: non-zero for the canonical form */                                            \
    X(P, CANONICAL, 1)

/* pm_abi_catwalk_generate and pm_abi_catwalk_generate_landed input (uint32 each). PARAMS: 0 (every
 * default) or the address of a parameter block (PM_ABI_LAYOUT_CATWALK_PARAM_BLOCK). HAS_MODEL bit 0: a model is given, bit 1: its bone names are
 * given. Name slot pairs as in the VMD descriptor for writing. GRID: 0 or the address of a beat grid
 * block (PM_ABI_LAYOUT_GRID_IN). */
#define PM_ABI_LAYOUT_CATWALK(X, P)                                                                        \
    X(P, PARAMS, 1) X(P, HAS_MODEL, 1) X(P, BONES, 1) X(P, BONE_OFFSETS, 1) X(P, MORPHS, 1)                 \
    X(P, MORPH_OFFSETS, 1) X(P, POSITIONS, 1) X(P, PARENTS, 1) X(P, SKELETON, 1) X(P, GRID, 1)
/* The catwalk's parameters (double each; CATWALK's PARAMS slot): per parameter a pair {given, value},
 * given 0 = not given (the default), else the value is checked as pm_catwalk_params_from_json checks
 * it (pmi_catwalk_param_set, one place: NaN/Inf, the enums, the flags, seed) and clamps where the
 * catwalk clamps. Slot names are the JSON names in upper snake case (HIP_SWAY = hipSway); POSE_SHOULDER
 * and POSE_ELBOW are poseArmAngle's two numbers (degrees); STEP_CADENCE, ARM_POSE and STYLE take the
 * values of CATWALK_CADENCE, CATWALK_ARMS and CATWALK_STYLE; TRAVERSE and U_TURN 0 or 1; BPM 0 = no music. The order is the
 * core's (pmi_catwalk_field, checked in abi_catwalk.c). */
#define PM_ABI_LAYOUT_CATWALK_PARAM_BLOCK(X, P)                                                                 \
    X(P, HIP_SWAY, 2) X(P, STEP_HEIGHT, 2) X(P, STRIDE, 2) X(P, CROSS_STEP, 2) X(P, HIP_TWIST, 2)           \
    X(P, PELVIS_DROP, 2) X(P, TORSO_TWIST, 2) X(P, TORSO_SWAY, 2) X(P, LEAN, 2) X(P, HEAD_FOLLOW, 2)         \
    X(P, TOE_OFF, 2) X(P, HEEL_STRIKE, 2) X(P, BOB, 2) X(P, STANCE_KNEE, 2) X(P, ARM_SWING, 2)              \
    X(P, ELBOW_BEND, 2) X(P, POSE_SHOULDER, 2) X(P, POSE_ELBOW, 2) X(P, BLINK, 2) X(P, EXPRESSION, 2)        \
    X(P, SPEED, 2) X(P, TRAVERSE_DISTANCE, 2) X(P, POSITION_TOLERANCE, 2) X(P, ROTATION_TOLERANCE, 2)       \
    X(P, BPM, 2) X(P, STEP_CADENCE, 2) X(P, ARM_POSE, 2) X(P, STYLE, 2) X(P, TRAVERSE, 2) X(P, U_TURN, 2)    \
    X(P, SEED, 2)
/* pm_abi_catwalk_generate(_landed) output (uint32 each): VMD bytes, info JSON, the plan's ankles (float
 * count) and contact (byte count), all host-freed. */
#define PM_ABI_LAYOUT_CATWALK_OUT(X, P)                                                                    \
    X(P, VMD, 1) X(P, VMD_SIZE, 1) X(P, INFO, 1) X(P, INFO_LEN, 1) X(P, PLAN, 1) X(P, PLAN_FLOATS, 1)       \
    X(P, CONTACT, 1) X(P, CONTACT_SIZE, 1)

/* pm_abi_idle_generate input (uint32 each): the parameters as JSON text (JSON 0: the defaults), a beat
 * grid block or 0, a skeleton handle or 0 (then the name lists, as CATWALK's HAS_MODEL .. PARENTS; neither:
 * the standard figure, on the mannequin). Output: VMD bytes and info JSON, host-freed. */
#define PM_ABI_LAYOUT_IDLE(X, P)                                                                           \
    X(P, JSON, 1) X(P, JSON_LEN, 1) X(P, GRID, 1) X(P, SKELETON, 1) X(P, HAS_MODEL, 1) X(P, BONES, 1)       \
    X(P, BONE_OFFSETS, 1) X(P, MORPHS, 1) X(P, MORPH_OFFSETS, 1) X(P, POSITIONS, 1) X(P, PARENTS, 1)
#define PM_ABI_LAYOUT_IDLE_OUT(X, P) X(P, VMD, 1) X(P, VMD_SIZE, 1) X(P, INFO, 1) X(P, INFO_LEN, 1)
/* pm_abi_dance_generate input (uint32 each): IDLE's slots, then the song's onset envelope (float
 * values, their count, values per 1000 s) or 0. Output: IDLE_OUT's, then the plan's ankles (float count)
 * and contact (byte count), host-freed. */
#define PM_ABI_LAYOUT_DANCE(X, P) PM_ABI_LAYOUT_IDLE(X, P) X(P, ONSET, 1) X(P, ONSET_COUNT, 1) X(P, ONSET_MILLIRATE, 1)
#define PM_ABI_LAYOUT_DANCE_OUT(X, P) PM_ABI_LAYOUT_IDLE_OUT(X, P) X(P, PLAN, 1) X(P, PLAN_FLOATS, 1) X(P, CONTACT, 1) X(P, CONTACT_SIZE, 1)
/* pm_abi_lifelike_sample output (float each): the blink morph's weight, then a local rotation offset (x y
 * z w) per channel in pm_lifelike_channel order (identity where the model has no bone for it). */
#define PM_ABI_LAYOUT_LIFELIKE_OUT(X, P) X(P, BLINK, 1) X(P, ROTATION, 36)

/* A beat grid as the host passes it (double each; pm_abi_grid_in, procmotion/beats.h): catwalk's GRID
 * slot, pm_abi_groove_bake_json's grid, pm_abi_groove_set_grid, pm_abi_timeline_set_grid. BEAT_COUNT beat
 * times (seconds) follow from BEATS. */
#define PM_ABI_LAYOUT_GRID_IN(X, P)                                                                        \
    X(P, BPM, 1) X(P, OFFSET, 1) X(P, BEATS_PER_BAR, 1) X(P, FIRST_DOWNBEAT, 1) X(P, BEAT_COUNT, 1) X(P, BEATS, 0)

/* pm_abi_sjis_table output (uint32 each): the core's Shift-JIS decode table (text/sjis_table.h). TABLE:
 * its address, ENTRIES uint16 code units (0 = unmapped), one per WHATWG pointer but the user-defined
 * area's EUDC_COUNT pointers from EUDC_POINTER (computed by the core; those after it sit EUDC_COUNT
 * earlier). FROM_HOST: 1 in the npm build, where the table is zero storage the host fills once, before
 * any other call (js-glue/index.js, from TextDecoder('shift_jis') or procmotion-sjis.bin); 0 where the
 * values are compiled in (native, WASI) and the table is read-only. CHECKSUM: pmi_hash_bytes of the
 * table as it is now; EXPECTED: of the generated values (equal once the host filled it right). */
#define PM_ABI_LAYOUT_SJIS_TABLE(X, P)                                                                     \
    X(P, TABLE, 1) X(P, ENTRIES, 1) X(P, EUDC_POINTER, 1) X(P, EUDC_COUNT, 1) X(P, FROM_HOST, 1)            \
    X(P, CHECKSUM, 1) X(P, EXPECTED, 1)

/* pm_abi_two_bone_ik (float each): in = root, mid, end, target, pole; out = deltas, solved joints. */
#define PM_ABI_LAYOUT_TWO_BONE_IN(X, P) X(P, ROOT, 3) X(P, MID, 3) X(P, END, 3) X(P, TARGET, 3) X(P, POLE, 3)
#define PM_ABI_LAYOUT_TWO_BONE_OUT(X, P)                                                                   \
    X(P, ROOT_ROTATION, 4) X(P, MID_ROTATION, 4) X(P, MID, 3) X(P, END, 3) X(P, MISS, 1) X(P, REACHED, 1)

/* pm_abi_pose_info (uint32 each). */
#define PM_ABI_LAYOUT_POSE_INFO(X, P)                                                                      \
    X(P, TRACKS, 1) X(P, KEYS, 1) X(P, UNMATCHED_BONES, 1) X(P, UNMATCHED_IK, 1) X(P, PROPERTY_KEYS, 1)     \
    X(P, FIRST_FRAME, 1) X(P, LAST_FRAME, 1)

/* pm_abi_humanoid_map and pm_abi_humanoid_map_skeleton output (uint32 each; 0xFFFFFFFF = none). */
#define PM_ABI_LAYOUT_HUMANOID(X, P)                                                                       \
    X(P, BONE, 22) X(P, NAMING, 22) X(P, MAPPED, 1) X(P, TOTAL, 1) X(P, MISSING_COUNT, 1)                   \
    X(P, MISSING, 16) X(P, DRIVABLE, 1)

/* pm_abi_groove_output (float each): a header, then 4 per bone from BONE_OFFSET. */
#define PM_ABI_LAYOUT_GROOVE_OUT(X, P)                                                                     \
    X(P, BEAT, 1) X(P, BODY, 3) X(P, LEGS_SOLVED, 1) X(P, FOOT_ERROR, 2) X(P, ANCHOR, 6) X(P, ANCHOR_ROT, 8) \
    X(P, LEG_ROT, 24) X(P, BONE_OFFSET, 0)
/* pm_abi_groove_info (uint32 each; PM_NO_INDEX = none). */
#define PM_ABI_LAYOUT_GROOVE_INFO(X, P)                                                                    \
    X(P, JOINT_BONE, 12) X(P, BODY, 1) X(P, LEG_BONE, 6) X(P, LEG_MODE, 1) X(P, LEG_IK_COUNT, 1) X(P, LEG_IK, 8)
/* pm_abi_groove_bake report (double each). */
#define PM_ABI_LAYOUT_GROOVE_REPORT(X, P)                                                                  \
    X(P, FRAMES, 1) X(P, LEG_MODE, 1) X(P, KEYED_BONES, 1) X(P, KEYS, 1) X(P, COPIED_KEYS, 1)               \
    X(P, MAX_POSITION_ERROR, 1) X(P, MAX_ROTATION_ERROR, 1) X(P, MAX_FOOT_ERROR, 1)

/* pm_abi_timeline_trace_state (float each) and pm_abi_timeline_trajectory (float points, uint32 info). */
#define PM_ABI_LAYOUT_TRACE_STATE(X, P)                                                                    \
    X(P, ACTIVE, 1) X(P, ID, 1) X(P, T, 1) X(P, ROOT, 3) X(P, TARGET, 3) X(P, POLE, 3) X(P, MISS, 1)
#define PM_ABI_LAYOUT_TRAJECTORY(X, P) X(P, POINTS, 192) X(P, POLE, 3)
#define PM_ABI_LAYOUT_TRAJECTORY_INFO(X, P) X(P, MODE, 1) X(P, HAS_POLE, 1)
/* pm_abi_timeline_bake_plan output (uint32 each, every pointer host-freed): VMD bytes; hands and ankles
 * (float, 6 per frame) with their float counts; active (uint8, 4 per frame); the landing report JSON. */
#define PM_ABI_LAYOUT_TRACE_BAKE(X, P)                                                                     \
    X(P, VMD, 1) X(P, VMD_SIZE, 1) X(P, HANDS, 1) X(P, HANDS_FLOATS, 1) X(P, ANKLES, 1) X(P, ANKLES_FLOATS, 1) \
    X(P, ACTIVE, 1) X(P, ACTIVE_SIZE, 1) X(P, REPORT, 1) X(P, REPORT_LEN, 1)

/* pm_abi_kp_describe (double each; pointers are addresses in the module's memory). */
#define PM_ABI_LAYOUT_KEYPOINTS(X, P)                                                                      \
    X(P, FRAMES, 1) X(P, FPS, 1) X(P, MIRRORED, 1) X(P, TIMESTAMPS, 1) X(P, POINTS, 1) X(P, VISIBILITY, 1)  \
    X(P, ANGLES, 1) X(P, FORMAT, 1) X(P, FAMILY, 1) X(P, SOURCE_JOINTS, 1) X(P, IGNORED, 1) X(P, DIRECT, 1) \
    X(P, INFERRED, 1) X(P, MISSING, 1) X(P, NAN, 1) X(P, OUT_OF_RANGE, 1) X(P, SCALE, 1) X(P, LEGS, 1)

/* pm_abi_score_describe (double each; pointers are addresses in the module's memory). */
#define PM_ABI_LAYOUT_SCORE(X, P)                                                                          \
    X(P, SCORE, 1) X(P, OFFSET, 1) X(P, FPS, 1) X(P, RESAMPLED, 1) X(P, FRAMES, 1) X(P, PER_FRAME, 1)        \
    X(P, MATCH, 1) X(P, PATH_LENGTH, 1) X(P, PATH, 1) X(P, PART_SCORE, 5) X(P, PART_LAG, 5)

/* X(P, module, LAYOUT): every layout above and the module whose glue reads it, for the manifest
 * (`runtime`: the glue's shared runtime.js, for every module's calls: dist/abi-runtime.js). */
#define PM_ABI_LAYOUTS(X, P)                                                                               \
    X(P, runtime, ERROR) X(P, core, VMD) X(P, core, CATWALK) X(P, core, CATWALK_PARAM_BLOCK) X(P, core, CATWALK_OUT) \
    X(P, runtime, GRID_IN) X(P, core, SJIS_TABLE)                                                           \
    X(P, motion, TWO_BONE_IN) X(P, motion, TWO_BONE_OUT) X(P, motion, POSE_INFO) X(P, motion, HUMANOID)     \
    X(P, motion, GROOVE_OUT) X(P, motion, GROOVE_INFO) X(P, motion, GROOVE_REPORT)                          \
    X(P, motion, TRACE_STATE) X(P, motion, TRAJECTORY) X(P, motion, TRAJECTORY_INFO) X(P, motion, TRACE_BAKE) \
    X(P, motion, IDLE) X(P, motion, IDLE_OUT) X(P, motion, DANCE) X(P, motion, DANCE_OUT) X(P, motion, LIFELIKE_OUT) X(P, keypoints, KEYPOINTS) X(P, keypoints, SCORE)

/* ---- enums: X(P, js_name, value, C constant) -------------------------------------------------- */

#define PM_ABI_ENUM_KP_FORMAT(X, P)                                                                        \
    X(P, auto, 0, PM_KP_FORMAT_AUTO) X(P, bvh, 1, PM_KP_FORMAT_BVH) X(P, vmd, 2, PM_KP_FORMAT_VMD)          \
    X(P, gltf, 3, PM_KP_FORMAT_GLTF) X(P, json, 4, PM_KP_FORMAT_JSON) X(P, ndjson, 5, PM_KP_FORMAT_NDJSON)  \
    X(P, binary, 6, PM_KP_FORMAT_BINARY) X(P, fbx, 7, PM_KP_FORMAT_FBX)
#define PM_ABI_ENUM_KP_LEGS(X, P) X(P, none, 0, PM_KP_LEGS_NONE) X(P, fk, 1, PM_KP_LEGS_FK) X(P, ik, 2, PM_KP_LEGS_IK)
/* pm_abi_kp_encode's kind */
#define PM_ABI_ENUM_KP_ENCODING(X, P) X(P, ndjson, 0, 0) X(P, binary, 1, 1) X(P, features, 2, 2)
#define PM_ABI_ENUM_HUMANOID_NAMING(X, P)                                                                  \
    X(P, none, 0, PM_RIG_NAMING_NONE) X(P, vroid, 1, PM_RIG_NAMING_VROID)                         \
    X(P, mixamo, 2, PM_RIG_NAMING_MIXAMO) X(P, mmd, 3, PM_RIG_NAMING_MMD)                         \
    X(P, chinese, 4, PM_RIG_NAMING_CHINESE) X(P, biped, 5, PM_RIG_NAMING_BIPED)                   \
    X(P, cmu, 6, PM_RIG_NAMING_CMU) X(P, daz, 7, PM_RIG_NAMING_DAZ)                               \
    X(P, english, 8, PM_RIG_NAMING_ENGLISH)
/* VMD field widths in bytes (procmotion/vmd.h): readVmd's raw fields, writeVmd's fixed-size copies */
#define PM_ABI_ENUM_VMD_FIELD(X, P)                                                                        \
    X(P, header, 30, PM_VMD_HEADER_SIZE) X(P, modelName, 20, PM_VMD_MODEL_NAME_SIZE)                        \
    X(P, modelNameV1, 10, PM_VMD_MODEL_NAME_SIZE_V1) X(P, boneName, 15, PM_VMD_BONE_NAME_SIZE)              \
    X(P, ikName, 20, PM_VMD_IK_NAME_SIZE)
#define PM_ABI_ENUM_IK_MODE(X, P) X(P, auto, 0, PM_IK_AUTO) X(P, on, 1, PM_IK_FORCE_ON) X(P, off, 2, PM_IK_FORCE_OFF)
/* pose evaluation flags (bits) */
#define PM_ABI_ENUM_POSE_FLAG(X, P) X(P, noIk, 1, PM_POSE_NO_IK) X(P, noAppend, 2, PM_POSE_NO_APPEND)
#define PM_ABI_ENUM_LEG_MODE(X, P)                                                                         \
    X(P, none, 0, PM_GROOVE_LEGS_NONE) X(P, analytic, 1, PM_GROOVE_LEGS_ANALYTIC) X(P, mmd-ik, 2, PM_GROOVE_LEGS_MMD_IK)
/* pm_abi_groove_offsets flags (bits) */
#define PM_ABI_ENUM_GROOVE_FLAG(X, P) X(P, legIkUser, 1, 1) X(P, resetAnchors, 2, 2) X(P, offsetsOnly, 4, 4)
#define PM_ABI_ENUM_LIMB(X, P)                                                                             \
    X(P, leftHand, 0, PM_LIMB_LEFT_HAND) X(P, rightHand, 1, PM_LIMB_RIGHT_HAND)                             \
    X(P, leftFoot, 2, PM_LIMB_LEFT_FOOT) X(P, rightFoot, 3, PM_LIMB_RIGHT_FOOT)
#define PM_ABI_ENUM_TRAJECTORY_MODE(X, P) X(P, line, 0, PM_TRAJECTORY_LINE) X(P, curve, 1, PM_TRAJECTORY_CURVE)
/* the catwalk's stepCadence, armPose and style (CATWALK_PARAM_BLOCK; 0 = the default: 2beat, swing, runway) */
#define PM_ABI_ENUM_CATWALK_CADENCE(X, P)                                                                  \
    X(P, default, 0, PM_CATWALK_CADENCE_DEFAULT) X(P, beat, 1, PM_CATWALK_CADENCE_BEAT)                     \
    X(P, 2beat, 2, PM_CATWALK_CADENCE_TWO_BEAT)
#define PM_ABI_ENUM_CATWALK_ARMS(X, P)                                                                     \
    X(P, default, 0, PM_CATWALK_ARMS_DEFAULT) X(P, swing, 1, PM_CATWALK_ARMS_SWING) X(P, posed, 2, PM_CATWALK_ARMS_POSED)
#define PM_ABI_ENUM_CATWALK_STYLE(X, P)                                                                    \
    X(P, default, 0, PM_CATWALK_STYLE_DEFAULT) X(P, runway, 1, PM_CATWALK_STYLE_RUNWAY)                     \
    X(P, feminine, 2, PM_CATWALK_STYLE_FEMININE) X(P, casual, 3, PM_CATWALK_STYLE_CASUAL)                   \
    X(P, strut, 4, PM_CATWALK_STYLE_STRUT)

/* X(P, module, ENUM): every enum above and the module whose glue uses it, for the manifest. */
#define PM_ABI_ENUMS(X, P)                                                                                 \
    X(P, keypoints, KP_FORMAT) X(P, keypoints, KP_LEGS) X(P, keypoints, KP_ENCODING)                        \
    X(P, motion, HUMANOID_NAMING) X(P, motion, IK_MODE) X(P, motion, POSE_FLAG) X(P, motion, LEG_MODE)      \
    X(P, motion, GROOVE_FLAG) X(P, motion, LIMB) X(P, motion, TRAJECTORY_MODE) X(P, core, VMD_FIELD)        \
    X(P, core, CATWALK_CADENCE) X(P, core, CATWALK_ARMS) X(P, core, CATWALK_STYLE)

/* ---- results: X(P, name, value) (pm_result, procmotion/common.h) ------------------------------ */
#define PM_ABI_RESULTS(X, P)                                                                               \
    X(P, PM_OK, 0) X(P, PM_ERR_INVALID_ARGUMENT, 1) X(P, PM_ERR_TRUNCATED, 2) X(P, PM_ERR_BAD_FORMAT, 3)    \
    X(P, PM_ERR_OUT_OF_MEMORY, 4) X(P, PM_ERR_LIMIT, 5) X(P, PM_ERR_ENCODING, 6) X(P, PM_ERR_NOT_FOUND, 7)  \
    X(P, PM_ERR_IO, 8)

/* ---- helpers for the C side ------------------------------------------------------------------ */

/* enum { PM_ABI_LAYOUT_VMD(PM_ABI_SLOT_ENUM, D_) D_COUNT }: D_VERSION = 0, ..., D_COUNT = the total. */
#define PM_ABI_SLOT_ENUM(P, NAME, N) P##NAME, P##NAME##_END_ = P##NAME + (N)-1,
/* PM_ABI_ENUM_IK_MODE(PM_ABI_CHECK_ENUM, ik_mode): the values here are the core's. */
#define PM_ABI_CHECK_ENUM(P, NAME, VALUE, CONSTANT) _Static_assert((VALUE) == (CONSTANT), "abi enum " #P " differs from the core");
/* 0 PM_ABI_ENUM_HUMANOID_NAMING(PM_ABI_COUNT_ENUM, ): how many values the list has (for an enum that
 * must list every value of the core's, checked against its _COUNT). */
#define PM_ABI_COUNT_ENUM(P, NAME, VALUE, CONSTANT) +1
#define PM_ABI_CHECK_RESULT(P, NAME, VALUE) _Static_assert((VALUE) == (NAME), "abi result " #NAME " differs from pm_result");

#endif

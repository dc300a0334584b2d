/* Retargeting real motion (CMU mocap BVH, a VRM Animation, a glTF robot's clips) onto every model, measured
 * as MMD plays the VMD: the keypoints' joint angles against the source's, the feet, the hands. */
#include "every_model.h"
#include "fixture_readers.h"
#include "pm_test.h"

#include "procmotion/humanoid.h"
#include "procmotion/keypoints.h"
#include "procmotion/retarget.h"

#include <math.h>

typedef struct angle_diff {
    double mean, worst_frame; /* |cosine difference| averaged over the ten angles: over all frames, the worst frame */
} angle_diff;

/* The joint angles of the source sampled at 30 fps against those of the VMD played on the model. */
static angle_diff compare(const unsigned char *src, size_t src_size, uint32_t animation, const pm_vmd *vmd, const pm_zoo_entry *model) {
    angle_diff d = {0, 0};
    pm_error err = {0};
    size_t size = 0;
    PM_CHECK_OK(pm_vmd_write(vmd, NULL, 0, &size, &err), &err);
    uint8_t *bytes = malloc(size);
    PM_CHECK_OK(pm_vmd_write(vmd, bytes, size, &size, &err), &err);
    pm_kp_options so = {.fps = 30, .animation = animation}, vo = {0};
    if (strcmp(model->kind, "mannequin") != 0) vo.model = model->bytes, vo.model_size = model->size;
    pm_kp_sequence *a = NULL, *b = NULL;
    PM_CHECK_OK(pm_kp_from_data(src, src_size, PM_KP_FORMAT_AUTO, &so, &a, &err), &err);
    PM_CHECK_OK(pm_kp_from_data(bytes, size, PM_KP_FORMAT_VMD, &vo, &b, &err), &err);
    if (a && b) {
        uint32_t n = a->frame_count < b->frame_count ? a->frame_count : b->frame_count;
        PM_CHECK(n + 1 >= a->frame_count);
        for (uint32_t f = 0; f < n; f++) {
            double s = 0;
            for (int k = 0; k < PM_KP_ANGLE_COUNT; k++)
                s += fabs((double)a->angles[f * PM_KP_ANGLE_COUNT + k] - b->angles[f * PM_KP_ANGLE_COUNT + k]);
            s /= PM_KP_ANGLE_COUNT;
            d.mean += s;
            if (s > d.worst_frame) d.worst_frame = s;
        }
        d.mean /= n ? n : 1;
    }
    pm_kp_free(a);
    pm_kp_free(b);
    free(bytes);
    return d;
}

/* Real figures (a real model, the mannequin, the zoo's models made from real ones), reported apart from
 * the zoo's stress models (a knee 31 degrees in front of the leg's line, PMD heads). */
static bool real_model(const pm_zoo_entry *m) {
    return strcmp(m->kind, "zoo") != 0 || strncmp(m->id, "real", 4) == 0 || strcmp(m->id, "unity") == 0;
}

typedef struct source_file {
    const char *path;
    bool fixture;
    uint32_t animation;
} source_file;

PM_TEST(real_motion_plays_on_every_model_as_on_its_source) {
    const source_file sources[] = {
        {"bvh/cmu_131_01.bvh", true, 0},
        {"data/three-vrm-test.vrma", false, 0},
        {"gltf/RobotExpressive.glb", true, 0},  /* Dance */
        {"gltf/RobotExpressive.glb", true, 10}, /* Walking */
    };
    size_t n = 0;
    pm_zoo_entry *models = pm_test_every_model(true, &n);
    const size_t stride = pm_test_quick() ? 8 : 1;
    for (size_t s = 0; s < sizeof sources / sizeof sources[0]; s++) {
        size_t size = 0;
        unsigned char *data = sources[s].fixture ? pm_test_read_fixture(sources[s].path, &size) : pm_test_read_file(sources[s].path, &size);
        if (!data) continue;
        pm_error err = {0};
        pm_humanoid_motion *m = NULL;
        pm_humanoid_motion_options mo = {.animation = sources[s].animation};
        PM_CHECK_OK(pm_humanoid_motion_read(data, size, &mo, &m, &err), &err);
        double mean_real = 0, worst_real = 0, mean_all = 0, worst_all = 0, slide = 0, pen = 0, plan = 0, hands = INFINITY, touch_gap = 0;
        uint32_t touching = 0;
        for (size_t i = 0; i < n && m; i += stride) {
            pm_vmd *vmd = NULL;
            pm_retarget_report rep;
            pm_result r = pm_retarget(m, models[i].skeleton, NULL, &vmd, &rep, &err);
            if (r != PM_OK) {
                printf("  %s on %s: %s\n", sources[s].path, models[i].id, err.message);
                PM_CHECK_OK(r, &err);
                continue;
            }
            angle_diff d = compare(data, size, sources[s].animation, vmd, &models[i]);
            if (real_model(&models[i])) mean_real = fmax(mean_real, d.mean), worst_real = fmax(worst_real, d.worst_frame);
            mean_all = fmax(mean_all, d.mean), worst_all = fmax(worst_all, d.worst_frame);
            PM_CHECK(rep.feet_landed);
            slide = fmax(slide, rep.feet.max_slide), pen = fmax(pen, rep.feet.penetration), plan = fmax(plan, rep.feet.max_error);
            for (int h = 0; h < 2; h++) { /* no deeper in the body than the source's hand, scaled */
                double margin = rep.body.hand_clearance[h] - fmin(0, rep.source_hand_clearance[h]);
                hands = fmin(hands, margin);
                touch_gap = fmax(touch_gap, rep.touch_gap[h]), touching += rep.touch_frames[h];
            }
            pm_vmd_free(vmd);
        }
        printf("  %s #%u: angles mean <= %.3f, worst frame <= %.3f on real models (%.3f, %.3f on all); slide %.4f, "
               "below the ground %.4f, plan %.4f, hands %.3f units clear of the source's depth; %u hand frames touching "
               "the body, the model's within %.4f of the touch\n",
               sources[s].path, sources[s].animation, mean_real, worst_real, mean_all, worst_all, slide, pen, plan, hands, touching, touch_gap);
        PM_CHECK(mean_all <= 0.1 && worst_all <= 0.25);
        PM_CHECK(slide <= 0.005 && pen <= 0.005 && plan <= 0.01);
        PM_CHECK(hands >= -0.03 && touch_gap <= 0.03);
        pm_humanoid_motion_free(m);
        free(data);
    }
    pm_zoo_entries_free(models, n);
}

/* The CMU file with its joints renamed j0, j1, ...: retargeted from its hierarchy alone, it plays as the
 * named file does. */
PM_TEST(a_skeleton_whose_names_say_nothing_is_retargeted_from_its_shape) {
    size_t size = 0, anon_size = 0;
    unsigned char *data = pm_test_read_fixture("bvh/cmu_131_01.bvh", &size);
    if (!data) return;
    char *anon = pm_test_anonymous_bvh(data, size, &anon_size);
    pm_error err = {0};
    pm_humanoid_motion *a = NULL, *b = NULL;
    PM_CHECK_OK(pm_humanoid_motion_read(data, size, NULL, &a, &err), &err);
    PM_CHECK_OK(pm_humanoid_motion_read((const uint8_t *)anon, anon_size, NULL, &b, &err), &err);
    pm_vmd *va = NULL, *vb = NULL;
    pm_retarget_report ra, rb;
    PM_CHECK_OK(pm_retarget(a, NULL, NULL, &va, &ra, &err), &err);
    PM_CHECK_OK(pm_retarget(b, NULL, NULL, &vb, &rb, &err), &err);
    if (va && vb) {
        PM_CHECK_STR(rb.naming, "inferred");
        PM_CHECK(rb.confidence >= 0.9 && rb.feet_landed && rb.feet.max_slide <= 0.005);
        pm_zoo_entry mannequin = {.kind = "mannequin"};
        angle_diff named = compare(data, size, 0, va, &mannequin), inferred = compare((const unsigned char *)anon, anon_size, 0, vb, &mannequin);
        printf("  angles against the source: named %.3f (worst %.3f), inferred %.3f (worst %.3f); confidence %.2f\n", named.mean,
               named.worst_frame, inferred.mean, inferred.worst_frame, rb.confidence);
        PM_CHECK(fabs(inferred.mean - named.mean) <= 0.01 && inferred.worst_frame <= 0.25);
    }
    pm_vmd_free(va);
    pm_vmd_free(vb);
    pm_humanoid_motion_free(a);
    pm_humanoid_motion_free(b);
    free(anon);
    free(data);
}

/* A VRM without animation is one pose: one key a bone at frame 0. */
PM_TEST(a_file_without_animation_gives_its_pose) {
    size_t size = 0;
    unsigned char *data = pm_test_read_fixture("vrm/VRMC_vrm_expressions_isBinary_Overrides.vrm", &size);
    if (!data) return;
    pm_error err = {0};
    pm_humanoid_motion *m = NULL;
    PM_CHECK_OK(pm_humanoid_motion_read(data, size, NULL, &m, &err), &err);
    pm_vmd *v = NULL;
    pm_retarget_report rep;
    if (m) PM_CHECK_OK(pm_retarget(m, NULL, NULL, &v, &rep, &err), &err);
    if (v) {
        PM_CHECK_EQ_INT(rep.frames, 0);
        PM_CHECK(v->bones.count >= 15 && v->bones.count == rep.key_count);
        for (uint32_t k = 0; k < v->bones.count; k++) PM_CHECK_EQ_INT(v->bones.frame[k], 0);
    }
    pm_vmd_free(v);
    pm_humanoid_motion_free(m);
    free(data);
}

PM_TEST(bad_arguments_are_refused_naming_why) {
    pm_vmd *vmd = (pm_vmd *)1;
    pm_error err = {0};
    PM_CHECK(pm_retarget(NULL, NULL, NULL, &vmd, NULL, &err) == PM_ERR_INVALID_ARGUMENT);
    PM_CHECK(vmd == NULL && strstr(err.message, "source") != NULL);
    PM_CHECK(pm_retarget(NULL, NULL, NULL, NULL, NULL, &err) == PM_ERR_INVALID_ARGUMENT);
    size_t size = 0;
    unsigned char *data = pm_test_read_file("data/three-vrm-test.vrma", &size);
    PM_CHECK(data != NULL);
    if (!data) return;
    pm_humanoid_motion *m = NULL;
    PM_CHECK_OK(pm_humanoid_motion_read(data, size, NULL, &m, &err), &err);
    pm_retarget_options o = {.rotation_tolerance = 45};
    PM_CHECK(pm_retarget(m, NULL, &o, &vmd, NULL, &err) == PM_ERR_INVALID_ARGUMENT);
    PM_CHECK(strstr(err.message, "tolerance") != NULL);
    o = (pm_retarget_options){.max_frames = 10};
    PM_CHECK(pm_retarget(m, NULL, &o, &vmd, NULL, &err) == PM_ERR_LIMIT);
    PM_CHECK(vmd == NULL);
    pm_humanoid_motion_free(m);
    free(data);
}

int main(void) { return pm_test_run_all(); }

/* Allocation-failure sweep (ufbx's "fail the Nth allocation"): every parser, writer and evaluator that
 * allocates is run on a small input with allocation 1 failing, then 2, 3, ... until the run needs no
 * more allocations than that and succeeds. Every failing run must end with a clean error (PM_ERR_OUT_OF_
 * MEMORY with a message, *out NULL) and nothing leaked (the counting allocator's live count back to 0); a
 * run whose failed allocation was absorbed must give exactly the output of an unfailing run (writers'
 * bytes, readers' names and counts). cJSON's allocations are part of the
 * count (cJSON_InitHooks). Under ASan the test also counts mallocs that go around the caller's allocator
 * (docs/reliability.md lists them). Runs needing more than 1500 allocations fail every one up to 256,
 * then every k-th (printed); PM_TEST_QUICK=1 (valgrind) keeps about 150 failure runs per case. */
#include "counting_alloc.h"
#include "pm_test.h"
#include "sample_inputs.h"

#include "procmotion/bvh.h"
#include "procmotion/catwalk.h"
#include "procmotion/gltf.h"
#include "procmotion/groove.h"
#include "procmotion/humanoid.h"
#include "procmotion/keypoints.h"
#include "procmotion/mannequin.h"
#include "procmotion/pmx.h"
#include "procmotion/pose.h"
#include "procmotion/skeleton.h"
#include "procmotion/tracing.h"
#include "procmotion/vmd.h"

/* One run: use `a` for everything, free everything, return the first failure (or PM_OK). `c` is for
 * test-side buffers (counter_tmalloc). Writers put their output in *out / *out_size (test-owned). */
typedef struct run_ctx {
    const uint8_t *in;
    size_t n;
    const uint8_t *in2; /* a second input (the model of a VMD, the skeleton JSON of a pose) */
    size_t n2;
    counter *c;
    uint8_t *out;
    size_t out_size;
} run_ctx;
typedef pm_result (*run_fn)(run_ctx *x, const pm_allocator *a, pm_error *err);

typedef struct sweep_report {
    long allocations; /* needed by a successful run */
    long plain;       /* mallocs around the allocator in the successful run (-1: not measured) */
} sweep_report;

static sweep_report sweep(const char *name, run_fn run, run_ctx x) {
    sweep_report rep = {0, -1};
    uint8_t *reference = NULL;
    size_t reference_size = 0;
    /* an unfailing run first: the output to compare and how many allocations there are */
    {
        counter c = {0};
        pm_error err = {0};
        x.c = &c;
        x.out = NULL;
        counter_begin(&c);
        pm_result r = run(&x, &(pm_allocator){counter_pm_alloc, counter_pm_free, &c, 0}, &err);
        counter_end(&c);
        PM_CHECK_MSG(r == PM_OK, "%s: the unfailing run fails: %s", name, err.message);
        PM_CHECK_MSG(c.live == 0, "%s: %ld blocks leaked by a successful run", name, c.live);
        rep.allocations = c.calls;
        rep.plain = counter_plain_mallocs(&c);
        reference = x.out;
        reference_size = x.out_size;
        if (r != PM_OK) return rep;
    }
    /* every allocation up to 256, then a stride that keeps a run at about 1500 failure runs (150 quick) */
    long budget = pm_test_quick() ? 150 : 1500, stride = rep.allocations > budget ? rep.allocations / budget : 1;
    long tried = 0;
    for (long k = 1; k <= rep.allocations; k += k < 256 && !pm_test_quick() ? 1 : stride) {
        counter c = {.fail_at = k};
        pm_error err = {0};
        x.c = &c;
        x.out = NULL;
        x.out_size = 0;
        counter_begin(&c);
        pm_result r = run(&x, &(pm_allocator){counter_pm_alloc, counter_pm_free, &c, 0}, &err);
        counter_end(&c);
        tried++;
        if (!c.hit) { /* fewer allocations than the reference run: must then be the same success */
            PM_CHECK_MSG(r == PM_OK, "%s: allocation %ld not reached, yet: %s", name, k, err.message);
        } else if (r == PM_OK) {
            /* a failure the code may absorb (none do today): the output must still be right */
            PM_CHECK_MSG(x.out_size == reference_size && (!x.out || memcmp(x.out, reference, reference_size) == 0),
                         "%s: allocation %ld failed, the call succeeded with different output", name, k);
        } else {
            PM_CHECK_MSG(r == PM_ERR_OUT_OF_MEMORY && err.type == r && err.message[0],
                         "%s: allocation %ld failed: result %s, message \"%s\"", name, k, pm_result_name(r), err.message);
        }
        PM_CHECK_MSG(c.live == 0, "%s: allocation %ld failed: %ld blocks (%zu bytes) leaked", name, k, c.live,
                     c.live_bytes);
        free(x.out);
    }
    printf("  %-30s %5ld allocations, %5ld failure runs (stride %ld after 256), plain mallocs %ld\n", name,
           rep.allocations, tried, stride, rep.plain);
    free(reference);
    return rep;
}

/* ---- runs ------------------------------------------------------------------------------------------ */

/* Append text to the run's output (test side): what a reader gave, so that an allocation failure the
 * code absorbed cannot go unnoticed (the output must equal the unfailing run's). */
static void out_add(run_ctx *x, const char *s, size_t n) {
    uint8_t *o = counter_tmalloc(x->c, x->out_size + n + 1);
    if (x->out_size) memcpy(o, x->out, x->out_size);
    memcpy(o + x->out_size, s, n);
    free(x->out);
    x->out = o;
    x->out_size += n;
}
static void out_str(run_ctx *x, pm_string s) {
    out_add(x, s.data, s.length);
    out_add(x, "\n", 1);
}
static void out_u32(run_ctx *x, uint32_t v) {
    char b[16];
    int n = snprintf(b, sizeof b, "%u;", v);
    out_add(x, b, (size_t)n);
}

/* The skeleton's JSON as the run's output. */
static pm_result skeleton_text(run_ctx *x, const pm_skeleton *s, pm_error *err) {
    size_t n = 0;
    pm_result r = pm_skeleton_to_json(s, NULL, 0, &n, err);
    if (r != PM_OK) return r;
    x->out = counter_tmalloc(x->c, n + 1);
    x->out_size = n + 1;
    return pm_skeleton_to_json(s, (char *)x->out, n + 1, &n, err);
}

static pm_result run_vmd_read(run_ctx *x, const pm_allocator *a, pm_error *err) {
    pm_vmd_read_options o = {.allocator = *a};
    pm_vmd *v = NULL;
    pm_result r = pm_vmd_read(x->in, x->n, &o, &v, err);
    if (r == PM_OK) {
        out_u32(x, v->bones.count), out_u32(x, v->morphs.count), out_u32(x, v->properties.ik_count);
        for (uint32_t i = 0; i < v->bone_names.count; i++) out_str(x, v->bone_names.items[i]);
        for (uint32_t i = 0; i < v->morph_names.count; i++) out_str(x, v->morph_names.items[i]);
        for (uint32_t i = 0; i < v->ik_names.count; i++) out_str(x, v->ik_names.items[i]);
        out_add(x, (const char *)v->bones.rotation, (size_t)v->bones.count * 16);
    } else {
        PM_CHECK(v == NULL);
    }
    pm_vmd_free(v);
    return r;
}

/* Build a motion key by key (the generators' path: growing arrays, interned names), then write it. */
static pm_result run_vmd_build_write(run_ctx *x, const pm_allocator *a, pm_error *err) {
    pm_vmd *v = NULL;
    pm_result r = pm_vmd_create(a, &v, err);
    static const char *names[] = {"センター", "上半身", "左足ＩＫ", "右足ＩＫ", "頭", "左腕", "右腕", "下半身"};
    const float pos[3] = {0, 1, 0}, rot[4] = {0, 0, 0, 1};
    for (uint32_t k = 0; r == PM_OK && k < 40; k++) r = pm_vmd_add_bone_key(v, names[k % 8], k, pos, rot, NULL, err);
    for (uint32_t k = 0; r == PM_OK && k < 10; k++) r = pm_vmd_add_morph_key(v, k % 2 ? "あ" : "まばたき", k, 0.5f, err);
    const char *iks[2] = {"左足ＩＫ", "右足ＩＫ"};
    const bool on[2] = {true, false};
    for (uint32_t k = 0; r == PM_OK && k < 5; k++) r = pm_vmd_add_property_key(v, k * 10, true, 2, iks, on, err);
    if (r == PM_OK) r = pm_vmd_set_model_name(v, "sweep", err);
    size_t need = 0;
    if (r == PM_OK) r = pm_vmd_write(v, NULL, 0, &need, err);
    if (r == PM_OK) {
        x->out = counter_tmalloc(x->c, need);
        x->out_size = need;
        r = pm_vmd_write(v, x->out, need, &need, err);
    }
    pm_vmd_free(v);
    return r;
}

static pm_result run_model_read(run_ctx *x, const pm_allocator *a, pm_error *err) {
    pm_model_read_options o = {.allocator = *a};
    pm_skeleton *s = NULL;
    pm_result r = pm_model_read(x->in, x->n, &o, &s, err);
    if (r != PM_OK) PM_CHECK(s == NULL);
    if (r == PM_OK) r = skeleton_text(x, s, err); /* the result as text (cJSON counted too) */
    pm_skeleton_free(s);
    return r;
}

static pm_result run_skeleton_json(run_ctx *x, const pm_allocator *a, pm_error *err) {
    pm_skeleton *s = NULL;
    pm_result r = pm_skeleton_from_json((const char *)x->in, x->n, a, &s, err);
    if (r == PM_OK) r = skeleton_text(x, s, err);
    pm_skeleton_free(s);
    return r;
}

static pm_result run_bvh(run_ctx *x, const pm_allocator *a, pm_error *err) {
    pm_bvh_read_options o = {.allocator = *a};
    pm_bvh *b = NULL;
    pm_result r = pm_bvh_read(x->in, x->n, &o, &b, err);
    if (r == PM_OK) {
        out_u32(x, b->frame_count), out_u32(x, b->channel_count);
        for (uint32_t j = 0; j < b->joint_count; j++) out_str(x, b->joints[j].name);
        out_add(x, (const char *)b->motion, (size_t)b->frame_count * b->channel_count * 4);
    }
    pm_bvh_free(b);
    return r;
}

static pm_result run_gltf(run_ctx *x, const pm_allocator *a, pm_error *err) {
    pm_gltf_read_options o = {.allocator = *a};
    pm_gltf *g = NULL;
    pm_result r = pm_gltf_read(x->in, x->n, &o, &g, err);
    if (r == PM_OK) {
        out_u32(x, g->skin_count), out_u32(x, g->animation_count), out_u32(x, g->human_bone_count);
        for (uint32_t i = 0; i < g->node_count; i++) out_str(x, g->nodes[i].name), out_u32(x, g->nodes[i].parent);
        for (uint32_t i = 0; i < g->skin_count; i++) out_str(x, g->skins[i].name);
        for (uint32_t i = 0; i < g->human_bone_count; i++) out_str(x, g->human_bones[i].bone);
        for (uint32_t a = 0; a < g->animation_count; a++) {
            out_str(x, g->animations[a].name);
            for (uint32_t c = 0; c < g->animations[a].channel_count; c++) out_u32(x, g->animations[a].channels[c].key_count);
        }
    }
    pm_gltf_free(g);
    return r;
}

static pm_result run_gltf_names(run_ctx *x, const pm_allocator *a, pm_error *err) {
    pm_name_list *l = NULL;
    pm_result r = pm_gltf_node_names(x->in, x->n, a, &l, err);
    for (uint32_t i = 0; r == PM_OK && i < l->count; i++) out_add(x, l->names[i], strlen(l->names[i]) + 1);
    pm_name_list_free(l);
    return r;
}

/* Any keypoint source, then features and both encodings. */
static pm_result run_keypoints(run_ctx *x, const pm_allocator *a, pm_error *err) {
    pm_kp_options o = {.allocator = *a, .model = x->in2, .model_size = x->n2};
    pm_kp_sequence *s = NULL;
    pm_result r = pm_kp_from_data(x->in, x->n, PM_KP_FORMAT_AUTO, &o, &s, err);
    size_t n = 0;
    if (r == PM_OK) {
        size_t nf = (size_t)s->frame_count * PM_KP_FEATURE_SIZE;
        float *f = counter_tmalloc(x->c, nf * sizeof *f);
        r = pm_kp_features(s, f, nf, err);
        free(f);
    }
    if (r == PM_OK) r = pm_kp_write_ndjson(s, NULL, 0, &n, err);
    if (r == PM_OK) {
        x->out = counter_tmalloc(x->c, n + 1);
        x->out_size = n + 1;
        r = pm_kp_write_ndjson(s, (char *)x->out, n + 1, &n, err);
    }
    pm_kp_free(s);
    return r;
}

/* A VMD on a skeleton from JSON: bind, workspace, pose, evaluate a few frames. */
static pm_result run_pose(run_ctx *x, const pm_allocator *a, pm_error *err) {
    pm_vmd_read_options vo = {.allocator = *a};
    pm_anim_bind_options bo = {.allocator = *a};
    pm_skeleton *sk = NULL;
    pm_vmd *v = NULL;
    pm_anim *anim = NULL;
    pm_pose_workspace *ws = NULL;
    pm_pose *pose = NULL;
    pm_result r = pm_skeleton_from_json((const char *)x->in2, x->n2, a, &sk, err);
    if (r == PM_OK) r = pm_vmd_read(x->in, x->n, &vo, &v, err);
    if (r == PM_OK) r = pm_anim_bind(sk, v, &bo, &anim, err);
    if (r == PM_OK) r = pm_pose_workspace_create(sk, a, &ws, err);
    if (r == PM_OK) r = pm_pose_create(sk, a, &pose, err);
    for (int f = 0; r == PM_OK && f < 40; f += 7) r = pm_pose_evaluate(anim, ws, f, pose, NULL, err);
    pm_pose_free(pose);
    pm_pose_workspace_free(ws);
    pm_anim_free(anim);
    pm_vmd_free(v);
    pm_skeleton_free(sk);
    return r;
}

static pm_result run_mannequin_pmx(run_ctx *x, const pm_allocator *a, pm_error *err) {
    pm_mannequin_options o = {.allocator = *a};
    size_t n = 0;
    pm_result r = pm_mannequin_pmx(&o, NULL, 0, &n, err);
    if (r == PM_OK) {
        x->out = counter_tmalloc(x->c, n);
        x->out_size = n;
        r = pm_mannequin_pmx(&o, x->out, n, &n, err);
    }
    return r;
}

/* pm_pmx_write takes no allocator: it must allocate nothing (or only through malloc, reported). */
static pm_result run_pmx_write(run_ctx *x, const pm_allocator *a, pm_error *err) {
    pm_mannequin_options o = {.allocator = *a};
    pm_skeleton *s = NULL;
    pm_result r = pm_mannequin_skeleton(&o, &s, err);
    size_t n = 0;
    pm_pmx_model model = {.skeleton = s};
    if (r == PM_OK) r = pm_pmx_write(&model, NULL, NULL, 0, &n, err);
    if (r == PM_OK) {
        x->out = counter_tmalloc(x->c, n);
        x->out_size = n;
        r = pm_pmx_write(&model, NULL, x->out, n, &n, err);
    }
    pm_skeleton_free(s);
    return r;
}

/* Catwalk: parameters from JSON, the generated loop (allocated with the parameters' allocator) written. */
static pm_result run_catwalk(run_ctx *x, const pm_allocator *a, pm_error *err) {
    pm_catwalk_params p;
    pm_result r = pm_catwalk_params_from_json((const char *)x->in, x->n, &p, err);
    p.allocator = *a;
    pm_vmd *v = NULL;
    if (r == PM_OK) r = pm_catwalk_generate(&p, NULL, &v, NULL, err);
    size_t n = 0;
    if (r == PM_OK) r = pm_vmd_write(v, NULL, 0, &n, err);
    if (r == PM_OK) {
        x->out = counter_tmalloc(x->c, n);
        x->out_size = n;
        r = pm_vmd_write(v, x->out, n, &n, err);
    }
    pm_vmd_free(v);
    return r;
}

/* Groove: settings from JSON and back (cJSON), the layer on the mannequin, a few frames. */
static pm_result run_groove(run_ctx *x, const pm_allocator *a, pm_error *err) {
    pm_groove_config cfg;
    pm_groove_config_reset(&cfg);
    pm_result r = pm_groove_config_parse((const char *)x->in, x->n, &cfg, err);
    size_t n = 0;
    if (r == PM_OK) r = pm_groove_config_to_json(&cfg, PM_GROOVE_JSON_CHANGED, NULL, 0, &n, err);
    if (r == PM_OK) {
        x->out = counter_tmalloc(x->c, n + 1);
        x->out_size = n + 1;
        r = pm_groove_config_to_json(&cfg, PM_GROOVE_JSON_CHANGED, (char *)x->out, n + 1, &n, err);
    }
    pm_mannequin_options mo = {.allocator = *a};
    pm_groove_options go = {.allocator = *a};
    pm_skeleton *sk = NULL;
    pm_groove *g = NULL;
    if (r == PM_OK) r = pm_mannequin_skeleton(&mo, &sk, err);
    if (r == PM_OK) r = pm_groove_create(sk, &cfg, &go, &g, err);
    for (int k = 0; r == PM_OK && k < 4; k++) {
        pm_groove_frame f;
        r = pm_groove_offsets(g, NULL, 0.3 * k, 128, 0, &f, err);
    }
    pm_groove_free(g);
    pm_skeleton_free(sk);
    return r;
}

/* Tracing: a timeline from JSON on the mannequin, written back, evaluated and baked. */
static pm_result run_timeline(run_ctx *x, const pm_allocator *a, pm_error *err) {
    pm_mannequin_options mo = {.allocator = *a};
    pm_timeline_options to = {.allocator = *a};
    pm_timeline_bake_options bo = {.allocator = *a};
    pm_skeleton *sk = NULL;
    pm_timeline *tl = NULL;
    pm_pose *pose = NULL;
    pm_vmd *v = NULL;
    pm_result r = pm_mannequin_skeleton(&mo, &sk, err);
    if (r == PM_OK) r = pm_timeline_from_json((const char *)x->in, x->n, sk, &to, &tl, err);
    size_t n = 0;
    if (r == PM_OK) r = pm_timeline_to_json(tl, NULL, 0, &n, err);
    if (r == PM_OK) {
        x->out = counter_tmalloc(x->c, n + 1);
        x->out_size = n + 1;
        r = pm_timeline_to_json(tl, (char *)x->out, n + 1, &n, err);
    }
    if (r == PM_OK) r = pm_pose_create(sk, a, &pose, err);
    for (int k = 0; r == PM_OK && k < 4; k++) r = pm_timeline_evaluate_beat(tl, 1.7 * k, pose, err);
    if (r == PM_OK) r = pm_timeline_bake(tl, &bo, &v, err);
    pm_vmd_free(v);
    pm_pose_free(pose);
    pm_timeline_free(tl);
    pm_skeleton_free(sk);
    return r;
}

/* ---- inputs ---------------------------------------------------------------------------------------- */

static char *mannequin_json(size_t *n) {
    pm_skeleton *s = NULL;
    pm_error err = {0};
    if (pm_mannequin_skeleton(NULL, &s, &err) != PM_OK) return NULL;
    pm_skeleton_to_json(s, NULL, 0, n, &err);
    char *t = malloc(*n + 1);
    pm_skeleton_to_json(s, t, *n + 1, n, &err);
    pm_skeleton_free(s);
    return t;
}

static uint8_t *mannequin_pmx(size_t *n) {
    pm_error err = {0};
    pm_mannequin_pmx(NULL, NULL, 0, n, &err);
    uint8_t *d = malloc(*n);
    pm_mannequin_pmx(NULL, d, *n, n, &err);
    return d;
}

/* Sweep a fixture when it is there. */
static void sweep_fixture(const char *name, run_fn run, const char *rel) {
    size_t n = 0;
    unsigned char *d = pm_test_read_fixture(rel, &n);
    if (!d) return;
    sweep(name, run, (run_ctx){.in = d, .n = n});
    free(d);
}

/* ---- tests ------------------------------------------------------------------------------------------ */

PM_TEST(vmd_reader_and_builder_fail_cleanly_at_every_allocation) {
    size_t n;
    uint8_t *vmd = pm_sample_vmd(&n);
    sweep("vmd read (generated)", run_vmd_read, (run_ctx){.in = vmd, .n = n});
    sweep("vmd build + write", run_vmd_build_write, (run_ctx){0});
    sweep_fixture("vmd read (camera fixture)", run_vmd_read, "vmd/wavefile_camera.vmd");
    free(vmd);
}

PM_TEST(model_readers_and_writers_fail_cleanly_at_every_allocation) {
    tb pmx = {0}, pmd = {0};
    pm_sample_pmx21(&pmx);
    pm_sample_pmd(&pmd);
    size_t mn;
    uint8_t *mq = mannequin_pmx(&mn);
    sweep("pmx 2.1 read (hand-made)", run_model_read, (run_ctx){.in = pmx.d, .n = pmx.n});
    sweep("pmd read (hand-made)", run_model_read, (run_ctx){.in = pmd.d, .n = pmd.n});
    sweep("pmx read (mannequin)", run_model_read, (run_ctx){.in = mq, .n = mn});
    sweep("mannequin pmx", run_mannequin_pmx, (run_ctx){0});
    sweep("pmx write", run_pmx_write, (run_ctx){0});
    if (!pm_test_quick()) sweep_fixture("pmx read (mmt fixture)", run_model_read, "pmx/mmt_test_model.pmx");
    free(pmx.d);
    free(pmd.d);
    free(mq);
}

PM_TEST(skeleton_json_fails_cleanly_at_every_allocation_including_cjson) {
    size_t n;
    char *json = mannequin_json(&n);
    sweep("skeleton JSON from + to", run_skeleton_json, (run_ctx){.in = (const uint8_t *)json, .n = n});
    free(json);
}

PM_TEST(bvh_and_gltf_readers_fail_cleanly_at_every_allocation) {
    smp_text bvh = pm_sample_bvh(1, 3);
    tb glb = pm_sample_gltf(2, 1), gltf = pm_sample_gltf(1, 0);
    sweep("bvh read (generated)", run_bvh, (run_ctx){.in = (const uint8_t *)bvh.d, .n = bvh.n});
    sweep("glb read (VRM 1.0, generated)", run_gltf, (run_ctx){.in = glb.d, .n = glb.n});
    sweep("gltf read (VRM 0.x, data URI)", run_gltf, (run_ctx){.in = gltf.d, .n = gltf.n});
    sweep("gltf node names", run_gltf_names, (run_ctx){.in = glb.d, .n = glb.n});
    sweep_fixture("glb read (VRM fixture)", run_gltf, "vrm/VRMC_vrm_expressions_isBinary_Overrides.vrm");
    free(bvh.d);
    free(glb.d);
    free(gltf.d);
}

PM_TEST(keypoint_conversions_and_codecs_fail_cleanly_at_every_allocation) {
    smp_text bvh = pm_sample_bvh(0, 4), json = pm_sample_kp_json(0);
    tb glb = pm_sample_gltf(0, 1);
    size_t vn, mn;
    uint8_t *vmd = pm_sample_vmd(&vn), *mq = mannequin_pmx(&mn);
    sweep("keypoints from BVH", run_keypoints, (run_ctx){.in = (const uint8_t *)bvh.d, .n = bvh.n});
    sweep("keypoints from glTF", run_keypoints, (run_ctx){.in = glb.d, .n = glb.n});
    sweep("keypoints from JSON", run_keypoints, (run_ctx){.in = (const uint8_t *)json.d, .n = json.n});
    sweep("keypoints from VMD", run_keypoints, (run_ctx){.in = vmd, .n = vn});
    sweep("keypoints from VMD + PMX", run_keypoints, (run_ctx){.in = vmd, .n = vn, .in2 = mq, .n2 = mn});
    /* NDJSON and binary streams of the BVH's keypoints */
    smp_text nd;
    tb bin;
    pm_sample_kp_streams(&bvh, &nd, &bin);
    sweep("keypoints from NDJSON", run_keypoints, (run_ctx){.in = (const uint8_t *)nd.d, .n = nd.n});
    sweep("keypoints from binary", run_keypoints, (run_ctx){.in = bin.d, .n = bin.n});
    free(nd.d);
    free(bin.d);
    free(bvh.d);
    free(json.d);
    free(glb.d);
    free(vmd);
    free(mq);
}

PM_TEST(pose_binding_and_evaluation_fail_cleanly_at_every_allocation) {
    size_t vn, jn;
    uint8_t *vmd = pm_sample_vmd(&vn);
    char *json = mannequin_json(&jn);
    sweep("pose (JSON skeleton + VMD)", run_pose, (run_ctx){.in = vmd, .n = vn, .in2 = (const uint8_t *)json, .n2 = jn});
    free(vmd);
    free(json);
}

PM_TEST(catwalk_groove_and_tracing_fail_cleanly_at_every_allocation) {
    smp_text c = pm_sample_catwalk_json(1), g = pm_sample_groove_json(), t = pm_sample_timeline_json();
    sweep("catwalk (JSON params, generate)", run_catwalk, (run_ctx){.in = (const uint8_t *)c.d, .n = c.n});
    sweep("groove (JSON, layer, frames)", run_groove, (run_ctx){.in = (const uint8_t *)g.d, .n = g.n});
    sweep("timeline (JSON, evaluate, bake)", run_timeline, (run_ctx){.in = (const uint8_t *)t.d, .n = t.n});
    free(c.d);
    free(g.d);
    free(t.d);
}

int main(void) { return pm_test_run_all(); }

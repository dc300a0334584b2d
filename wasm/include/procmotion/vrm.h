/*
 * procmotion/vrm.h -- any PMX/PMD model out as a VRM 1.0 file (the model rebound to VRM 1.0 humanoid bones and wrapped as glTF).
 *
 * USAGE
 *       pm_model *m = NULL;                                  // pmx.h: the whole model
 *       pm_model_load(pmx, pmx_size, NULL, &m, &err);
 *       pm_vrm_texture tex[] = {{"tex/diffuse.png", png, png_size}};
 *       pm_vrm_options o = {.textures = tex, .texture_count = 1,
 *                           .meta = {.authors = "Someone", .license_url = "https://vrm.dev/licenses/1.0/"}};
 *       pm_vrm_result *vrm = NULL;
 *       if (pm_vrm_from_model(m, &o, &vrm, &err) != PM_OK) puts(err.message);
 *       fwrite(vrm->glb, 1, vrm->glb_size, f);               // a .vrm (glTF 2.0 binary)
 *       puts(vrm->report_json);                              // what was mapped, converted, skipped
 *       pm_vrm_result_free(vrm); pm_model_free(m);
 *
 * WHAT IS WRITTEN (docs/vrm.md has the full mapping)
 *   glTF 2.0 binary with one skinned mesh whose primitives are the materials (materials drawing no
 *   faces are left out); the vertex arrays (POSITION, NORMAL, TEXCOORD_0, JOINTS_0, WEIGHTS_0) are
 *   shared by the primitives, and every vertex morph is a morph target (sparse POSITION deltas, names
 *   in mesh.extras.targetNames). Bones are nodes 0..bone_count-1 in bone order (node i = bone i, its
 *   name the bone's), the skin's joints are all bones, inverse bind matrices the rest translations.
 *   Weights: BDEF1/2/4 as they are (normalised, duplicate bones merged, at most 4); SDEF is written as
 *   BDEF2 (its C/R0/R1 spherical correction is dropped: linear blending, the difference shows only on
 *   strongly bent elbows and knees) and QDEF as BDEF4 (dual quaternion blending becomes linear).
 *   Textures: PNG and JPEG are embedded byte for byte; BMP (1/4/8/24/32-bit, uncompressed) and TGA
 *   (true colour, grey, colour-mapped, RLE or not) are converted to PNG; anything else (DDS, GIF, ...)
 *   and textures the caller did not supply are reported as skipped and the material keeps its colour.
 *   Materials: VRMC_materials_mtoon (default) or KHR_materials_unlit (PM_VRM_MATERIALS_UNLIT).
 *   VRMC_vrm 1.0: meta, humanoid, expressions, lookAt (below). VRMC_springBone 1.0: static rigid
 *   bodies on bones as colliders (sphere, capsule; a box as a sphere), chains of bones moved by
 *   physics bodies (not human bones) as springs with the colliders MMD's groups let them touch.
 *
 * COORDINATES
 *   MMD units, left-handed, Y up, the model facing -Z become glTF metres, right-handed, Y up, facing +Z
 *   (VRM 1.0): (x, y, z) -> (0.08 x, 0.08 y, -0.08 z) (1 unit = 8 cm), normals (x, y, -z), and each
 *   triangle's winding reversed (the mirror turns MMD's clockwise front faces into glTF's
 *   counter-clockwise ones). +X stays the model's left.
 *
 * T-POSE
 *   VRM 1.0 expects the T-pose at rest. Unless keep_rest_pose is set, the arms are baked into it: the
 *   upper arm (腕) is turned so that shoulder joint -> elbow points along the model's side (+X left,
 *   -X right) and then the lower arm (ひじ) so that elbow -> wrist does; every bone below moves with
 *   them, and vertices, normals and morph deltas are re-skinned by linear blend skinning with those
 *   rotations (the new bind pose). Legs, hands and fingers keep their rest pose. With keep_rest_pose the
 *   A-pose stays: VRM loaders then take the A-pose as the T-pose, so a pose written for VRM (arms at
 *   the side = 90 degrees down) leaves the arms about the A-pose angle too low.
 *
 * HUMANOID (the rig resolver, procmotion/rig.h; no other mapping)
 *   humanoid.humanBones names node indices: the 22 humanoid bones (humanoid.h), plus the eyes
 *   (左目 / 右目) and the fingers (親指０-２, 人指１-３, 中指, 薬指, 小指) when the resolver finds them.
 *   A model lacking any of the 16 required bones fails with PM_ERR_NOT_FOUND naming them. VRM wants
 *   each human bone below its human parent (spine below hips); MMD hangs 上半身 beside 下半身, so a
 *   human bone whose human parent is not among its ancestors is re-parented to it (its world rest
 *   position is unchanged). Bones that map to nothing stay as they are (extra bones, original names).
 *
 * EXPRESSIONS (standard MMD morph names -> VRM presets; docs/vrm.md lists them)
 *   あ aa, い ih, う ou, え ee, お oh, まばたき blink, ウィンク / ウィンク２ blinkLeft, ウィンク右 / ウィンク２右
 *   blinkRight, 笑い happy, 怒り angry, 困る sad, なごみ relaxed, びっくり surprised. Vertex morphs bind
 *   their morph target; group morphs bind their vertex morphs with the group's weights. Morphs of other
 *   kinds (bone, UV, material, flip, impulse) are not converted (counted in the report).
 *
 * LOOKAT
 *   type "bone" when both eye bones are found (offsetFromHeadBone = the eyes' midpoint minus the head),
 *   else "expression" with no eye expressions.
 *
 * META
 *   name: options.meta.name or the model's name; authors, version, copyright, contact, references,
 *   license URL and the permission fields only from the options: nothing is invented. VRM requires
 *   authors and licenseUrl: without them the file says authors ["unknown"] and licenseUrl
 *   "https://vrm.dev/licenses/1.0/" (the VRM Public License 1.0, whose omitted permission fields mean
 *   the most restrictive terms), and the report's metaDefaults lists what was filled in.
 *
 * REPORT (result->report_json, docs/vrm.md)
 *   { humanoidMapped, humanoidTotal, missingRequiredBones: [...], drivable, humanBones: {vrm name: bone
 *   name}, tPose: {applied, armDegrees, elbowDegrees: {left, right}}, textures: [{path, status, detail}], materials,
 *   primitives, morphTargets, expressions: {preset: morph}, morphsSkipped, metaDefaults, weights:
 *   {sdef, qdef, renormalized}, nonFinite, facesNotDrawn, glbBytes,
 *   springs: {springs, joints, colliders, colliderGroups}. humanoidMapped / humanoidTotal /
 *   missingRequiredBones / drivable are the humanoid map's figures (the 22 bones, the 16 required).
 *
 * ERRORS
 *   NULL model or out: PM_ERR_INVALID_ARGUMENT; missing required bones: PM_ERR_NOT_FOUND; more than
 *   65536 bones (glTF JOINTS_0 is 16-bit here): PM_ERR_LIMIT; out of memory: PM_ERR_OUT_OF_MEMORY. A
 *   texture that cannot be read is a reported skip, not an error. Non-finite numbers in the model are
 *   written as 0 (counted in nonFinite): no NaN or Inf reaches the file.
 *
 * OWNERSHIP
 *   The model and the textures are borrowed during the call. The result owns the GLB and the report;
 *   free it with pm_vrm_result_free (NULL is fine). No global state.
 */
#ifndef PROCMOTION_VRM_H
#define PROCMOTION_VRM_H

#include "procmotion/common.h"
#include "procmotion/humanoid.h"
#include "procmotion/pmx.h"

#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A texture file the caller supplies; `path` is matched against the model's texture paths with '\\'
 * and '/' alike and ASCII case ignored, first as the whole path, then by file name. */
typedef struct pm_vrm_texture {
    const char *path;
    const uint8_t *data;
    size_t size;
} pm_vrm_texture;

/* VRMC_vrm meta fields (UTF-8; NULL = not given). authors and references: several separated by '\n'.
 * The permission fields take VRM 1.0's enumerated strings ("onlyAuthor", "personalNonProfit", ...);
 * allow_* fields: 0 = not given, 1 = false, 2 = true. */
typedef struct pm_vrm_meta {
    const char *name;
    const char *version;
    const char *authors;
    const char *copyright_information;
    const char *contact_information;
    const char *references;
    const char *third_party_licenses;
    const char *license_url;
    const char *avatar_permission;
    const char *commercial_usage;
    const char *credit_notation;
    const char *modification;
    const char *other_license_url;
    uint8_t allow_excessively_violent_usage;
    uint8_t allow_excessively_sexual_usage;
    uint8_t allow_political_or_religious_usage;
    uint8_t allow_antisocial_or_hate_usage;
    uint8_t allow_redistribution;
} pm_vrm_meta;

typedef enum pm_vrm_materials {
    PM_VRM_MATERIALS_DEFAULT = 0, /* = MTOON */
    PM_VRM_MATERIALS_MTOON,       /* VRMC_materials_mtoon */
    PM_VRM_MATERIALS_UNLIT,       /* KHR_materials_unlit */
    PM_VRM_MATERIALS_COUNT,
    PM_VRM_MATERIALS_FORCE_U32 = 0x7fffffff
} pm_vrm_materials;

/* Options; zero-initialise (or pass NULL) for the defaults: malloc/free, no textures, meta from the
 * model only, MToon materials, the arms baked into a T-pose. */
typedef struct pm_vrm_options {
    pm_allocator allocator;
    const pm_vrm_texture *textures;
    uint32_t texture_count;
    pm_vrm_meta meta;
    pm_vrm_materials materials;
    bool keep_rest_pose; /* true: write the model's own rest pose (no T-pose bake) */
} pm_vrm_options;

typedef struct pm_vrm_result {
    uint32_t magic;               /* internal */
    uint8_t *glb;                 /* the .vrm file */
    size_t glb_size;
    char *report_json;            /* NUL-terminated */
    size_t report_json_length;
    /* the humanoid map's figures */
    uint32_t humanoid_mapped;     /* of the 22 */
    uint32_t humanoid_total;      /* 22 */
    uint32_t missing_required_count;
    pm_humanoid_bone missing_required[PM_HUMANOID_REQUIRED_COUNT];
    bool drivable;
    /* what else was written */
    uint32_t human_bones;         /* VRM human bones written (the 22's found + eyes + fingers) */
    uint32_t morph_targets, expressions, morphs_skipped;
    uint32_t textures_embedded, textures_converted, textures_skipped;
    uint32_t primitives;
    bool t_pose;                  /* the arms were baked into a T-pose */
    float arm_degrees[2];         /* left, right upper arm below horizontal before the bake */
    float elbow_degrees[2];       /* how much further the forearm points down than the upper arm (the bake
                                     straightens it) */
    pm_allocator allocator;
} pm_vrm_result;

pm_result pm_vrm_from_model(const pm_model *model, const pm_vrm_options *opts, pm_vrm_result **out, pm_error *err);
void pm_vrm_result_free(pm_vrm_result *result);

/* The VRM 1.0 humanBones name of a rig role ("hips", "leftThumbMetacarpal", "leftEye", ...), or NULL
 * for a role VRM has no bone for. */
const char *pm_vrm_bone_name(int rig_role);

#ifdef __cplusplus
}
#endif

#endif

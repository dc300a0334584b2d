/* Internal: the mannequin's body fitted to any skeleton with its bone names (the test zoo dresses its
 * skeleton variants with it; pm_mannequin_pmx dresses the built-in skeleton). */
#ifndef PROCMOTION_MANNEQUIN_INTERNAL_H
#define PROCMOTION_MANNEQUIN_INTERNAL_H

#include "common/internal.h"
#include "procmotion/pmx.h"

/* The mesh, materials, face morphs and display frames of a model; `model` is ready for pm_pmx_write
 * (model.skeleton is the skeleton given, borrowed). */
typedef struct pmi_mannequin_body {
    pm_pmx_model model;
    const pm_allocator *allocator;
    pm_pmx_vertex *vertices;
    uint32_t *indices;
    pm_pmx_material materials[7];
    pm_pmx_vertex_morph morphs[3];
    uint32_t *morph_vertices;
    pm_vec3 *morph_offsets;
    pm_pmx_display_frame display_frames[9];
    pm_pmx_display_item *display_items;
} pmi_mannequin_body;

/*
 * Build the body for `skeleton`: every part of the mannequin is placed where the skeleton's bone of the
 * same name is (parts of a missing bone follow its parent in the mannequin's table, e.g. 上半身2's chest
 * goes with 上半身), sized by the head's height over the mannequin's, and skinned (BDEF1) to that bone
 * (legs to 足D / ひざD / 足首D when the skeleton has them, as real models skin them). Bones that are not
 * the mannequin's get a display frame "その他". Needs 全ての親 and 頭. With the built-in skeleton the
 * result is exactly the built-in mannequin's. Free with pmi_mannequin_body_free (also after a failure).
 */
pm_result pmi_mannequin_body_build(const pm_skeleton *skeleton, const pm_allocator *allocator, pmi_mannequin_body *body,
                             pm_error *err);
void pmi_mannequin_body_free(pmi_mannequin_body *body);

#endif

/* Binding a VMD to a skeleton: bone keys grouped per bone and stable-sorted by frame, property keys
 * resolved into per-frame IK states (see procmotion/pose.h). Mirrors babylon-mmd's VmdLoader and
 * MmdRuntimeModelAnimation.Create. */
#include "pose_internal.h"

static uint32_t find_exact(const pm_skeleton *sk, pm_string name) {
    /* babylon-mmd builds a Map from bone names, so a later bone of the same name wins. */
    uint32_t found = PM_NO_INDEX;
    for (uint32_t i = 0; i < sk->bone_count; i++) {
        const pm_string *n = &sk->bones[i].name;
        if (n->length == name.length && (name.length == 0 || memcmp(n->data, name.data, name.length) == 0)) found = i;
    }
    return found;
}

static uint32_t find_bone(const pm_skeleton *sk, pm_string name, bool normalized) {
    uint32_t b = find_exact(sk, name);
    if (b == PM_NO_INDEX && normalized && name.data) b = pm_skeleton_find_mmd(sk, name.data);
    return b;
}

void pmi_sort_indices(uint32_t *idx, uint32_t *tmp, uint32_t n, pmi_less_fn less, const void *ctx) {
    for (uint32_t width = 1; width < n; width *= 2) {
        for (uint32_t lo = 0; lo < n; lo += 2 * width) {
            uint32_t mid = lo + width < n ? lo + width : n, hi = lo + 2 * width < n ? lo + 2 * width : n;
            uint32_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi) tmp[k++] = less(idx[j], idx[i], ctx) ? idx[j++] : idx[i++];
            while (i < mid) tmp[k++] = idx[i++];
            while (j < hi) tmp[k++] = idx[j++];
        }
        memcpy(idx, tmp, (size_t)n * sizeof *idx);
    }
}

static bool frame_less(uint32_t a, uint32_t b, const void *frames) {
    return ((const uint32_t *)frames)[a] < ((const uint32_t *)frames)[b];
}

/* Stable sort of key indices by frame (JS's Array.prototype.sort is stable too). */
static void sort_by_frame(uint32_t *idx, uint32_t *tmp, uint32_t n, const uint32_t *frame) {
    pmi_sort_indices(idx, tmp, n, frame_less, frame);
}

void pm_anim_free(pm_anim *anim) {
    if (!anim || anim->magic != PMI_ANIM_MAGIC) return;
    const pm_allocator *a = &anim->allocator;
    pmi_free(a, anim->track_of_bone);
    pmi_free(a, anim->tracks);
    pmi_free(a, anim->frames);
    pmi_free(a, anim->positions);
    pmi_free(a, anim->rotations);
    pmi_free(a, anim->curves);
    pmi_free(a, anim->prop_frames);
    pmi_free(a, anim->prop_ik_bone);
    pmi_free(a, anim->prop_states);
    pmi_free(a, anim->unmatched);
    pmi_free(a, anim->names);
    anim->magic = 0;
    pm_allocator copy = *a;
    pmi_free(&copy, anim);
}

#define ALLOC(ptr, n, what)                                                                                            \
    do {                                                                                                               \
        (ptr) = pmi_alloc_array(&anim->allocator, (n), sizeof *(ptr), err, "pose: " what);                           \
        if (!(ptr)) goto fail;                                                                                         \
    } while (0)

/* Group and sort the bone keys. */
static pm_result bind_bones(pm_anim *anim, const pm_vmd *vmd, bool normalized, uint32_t *name_bone,
                            uint32_t *unmatched_names, pm_error *err) {
    const pm_vmd_bone_keys *keys = &vmd->bones;
    const uint32_t names = vmd->bone_names.count, n = keys->count;
    uint32_t *count = NULL, *start = NULL, *idx = NULL, *tmp = NULL;
    pm_result res = PM_OK;
    /* name -> bone; each bound bone gets the track of the last name that maps to it */
    for (uint32_t i = 0; i < names; i++) {
        name_bone[i] = find_bone(anim->skeleton, vmd->bone_names.items[i], normalized);
    }
    ALLOC(count, names + 1, "bone key counts");
    ALLOC(start, names + 1, "bone key starts");
    for (uint32_t k = 0; k < n; k++) {
        uint32_t ni = keys->name_index[k];
        if (ni >= names) {
            res = pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "pose: bone key %u names entry %u of %u", k, ni, names);
            goto done;
        }
        count[ni]++;
    }
    for (uint32_t i = 0; i < names; i++) {
        if (count[i] == 0) continue;
        if (name_bone[i] == PM_NO_INDEX) {
            unmatched_names[anim->unmatched_bone_count++] = i;
            continue;
        }
        uint32_t b = name_bone[i];
        if (anim->track_of_bone[b] == PM_NO_INDEX) anim->track_of_bone[b] = anim->track_count++;
        anim->tracks[anim->track_of_bone[b]].bone = b;
    }
    /* keys of bound names, per name in file order, then sorted by frame */
    uint32_t total = 0;
    for (uint32_t i = 0; i < names; i++) {
        start[i] = total;
        if (name_bone[i] != PM_NO_INDEX) total += count[i];
    }
    start[names] = total;
    ALLOC(idx, total + 1, "bone key order");
    ALLOC(tmp, total + 1, "bone key order");
    memset(count, 0, (size_t)(names + 1) * sizeof *count);
    for (uint32_t k = 0; k < n; k++) {
        uint32_t ni = keys->name_index[k];
        if (name_bone[ni] != PM_NO_INDEX) idx[start[ni] + count[ni]++] = k;
    }
    ALLOC(anim->frames, total + 1, "frames");
    ALLOC(anim->positions, (size_t)total * 3 + 1, "positions");
    ALLOC(anim->rotations, (size_t)total * 4 + 1, "rotations");
    ALLOC(anim->curves, (size_t)total * 16 + 1, "curves");
    uint32_t out = 0;
    for (uint32_t i = 0; i < names; i++) {
        if (name_bone[i] == PM_NO_INDEX || count[i] == 0) continue;
        /* when two names map to one bone (normalized matching) the later name's keys win */
        pmi_track *t = &anim->tracks[anim->track_of_bone[name_bone[i]]];
        uint32_t *ki = idx + start[i];
        sort_by_frame(ki, tmp, count[i], keys->frame);
        t->first = out;
        t->count = count[i];
        for (uint32_t j = 0; j < count[i]; j++, out++) {
            uint32_t k = ki[j];
            anim->frames[out] = keys->frame[k];
            memcpy(anim->positions + (size_t)out * 3, keys->position + (size_t)k * 3, 3 * sizeof(float));
            memcpy(anim->rotations + (size_t)out * 4, keys->rotation + (size_t)k * 4, 4 * sizeof(float));
            const uint8_t *ip = keys->interpolation + (size_t)k * 64;
            uint8_t *c = anim->curves + (size_t)out * 16;
            for (int a = 0; a < 4; a++) {
                c[4 * a + 0] = ip[16 * a + 0];  /* x1 */
                c[4 * a + 1] = ip[16 * a + 4];  /* y1 */
                c[4 * a + 2] = ip[16 * a + 8];  /* x2 */
                c[4 * a + 3] = ip[16 * a + 12]; /* y2 */
            }
        }
    }
    anim->key_count = out;
    goto done;
fail:
    res = err ? err->type : PM_ERR_OUT_OF_MEMORY;
done:
    pmi_free(&anim->allocator, count);
    pmi_free(&anim->allocator, start);
    pmi_free(&anim->allocator, idx);
    pmi_free(&anim->allocator, tmp);
    return res;
}

/* Property keys: stable-sort by frame, keep the last key of each frame, and give every key a full row
 * of states over the IK names (a name missing from a key repeats the previous row, or is 0 in the
 * first), as babylon-mmd's VmdLoader does. */
static pm_result bind_properties(pm_anim *anim, const pm_vmd *vmd, bool normalized, uint32_t *unmatched_ik,
                                 pm_error *err) {
    const pm_vmd_property_keys *pk = &vmd->properties;
    const uint32_t n = pk->count, names = vmd->ik_names.count;
    uint32_t *idx = NULL, *tmp = NULL, *name_col = NULL, *col_name = NULL, *bound_col = NULL;
    uint8_t *rows = NULL;
    pm_result res = PM_OK;
    if (n == 0) return PM_OK;
    ALLOC(idx, n, "property key order");
    ALLOC(tmp, n, "property key order");
    for (uint32_t k = 0; k < n; k++) idx[k] = k;
    sort_by_frame(idx, tmp, n, pk->frame);
    uint32_t kept = 0; /* idx[0..kept) = the last key of each frame */
    for (uint32_t j = 0; j < n; j++)
        if (j + 1 == n || pk->frame[idx[j + 1]] != pk->frame[idx[j]]) idx[kept++] = idx[j];
    /* columns: IK names in order of first appearance in the file (babylon-mmd's Set) */
    ALLOC(name_col, names + 1, "IK name columns");
    ALLOC(col_name, names + 1, "IK name columns");
    for (uint32_t i = 0; i < names; i++) name_col[i] = PM_NO_INDEX;
    uint32_t cols = 0;
    for (uint32_t k = 0; k < n; k++) {
        if (pk->ik_start[k] > pk->ik_start[k + 1] || pk->ik_start[k + 1] > pk->ik_count) {
            res = pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "pose: property key %u has a bad IK state range", k);
            goto done;
        }
        for (uint32_t s = pk->ik_start[k]; s < pk->ik_start[k + 1]; s++) {
            uint32_t ni = pk->ik_name_index[s];
            if (ni >= names) {
                res = pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "pose: property IK state %u names entry %u of %u", s, ni,
                               names);
                goto done;
            }
            if (name_col[ni] == PM_NO_INDEX) {
                name_col[ni] = cols;
                col_name[cols++] = ni;
            }
        }
    }
    rows = pmi_alloc_array(&anim->allocator, kept, (size_t)cols + 1, err, "pose: IK states");
    if (!rows) goto fail;
    for (uint32_t r = 0; r < kept; r++) {
        uint8_t *cur = rows + (size_t)r * (cols + 1);
        if (r) memcpy(cur, cur - (cols + 1), cols);
        uint32_t k = idx[r];
        for (uint32_t s = pk->ik_start[k]; s < pk->ik_start[k + 1]; s++)
            cur[name_col[pk->ik_name_index[s]]] = pk->ik_enabled[s] ? 1 : 0;
    }
    /* bind the columns to bones with IK; the other names are reported */
    ALLOC(anim->prop_ik_bone, cols + 1, "IK bones");
    ALLOC(bound_col, cols + 1, "IK bones");
    uint32_t bound = 0;
    for (uint32_t c = 0; c < cols; c++) {
        uint32_t ni = col_name[c];
        uint32_t b = find_bone(anim->skeleton, vmd->ik_names.items[ni], normalized);
        if (b == PM_NO_INDEX || !anim->skeleton->bones[b].has_ik) {
            unmatched_ik[anim->unmatched_ik_count++] = ni;
            continue;
        }
        anim->prop_ik_bone[bound] = b;
        bound_col[bound++] = c;
    }
    anim->prop_ik_count = bound;
    anim->prop_count = kept;
    ALLOC(anim->prop_frames, kept + 1, "property frames");
    anim->prop_states = pmi_alloc_array(&anim->allocator, kept, (size_t)bound + 1, err, "pose: IK states");
    if (!anim->prop_states) goto fail;
    for (uint32_t r = 0; r < kept; r++) {
        anim->prop_frames[r] = pk->frame[idx[r]];
        for (uint32_t c = 0; c < bound; c++)
            anim->prop_states[(size_t)r * bound + c] = rows[(size_t)r * (cols + 1) + bound_col[c]];
    }
    goto done;
fail:
    res = err ? err->type : PM_ERR_OUT_OF_MEMORY;
done:
    pmi_free(&anim->allocator, idx);
    pmi_free(&anim->allocator, tmp);
    pmi_free(&anim->allocator, name_col);
    pmi_free(&anim->allocator, col_name);
    pmi_free(&anim->allocator, bound_col);
    pmi_free(&anim->allocator, rows);
    return res;
}

/* Copy the unmatched names into one arena so the anim outlives the VMD. */
static pm_result keep_unmatched(pm_anim *anim, const pm_vmd *vmd, const uint32_t *bone_names, const uint32_t *ik_names,
                                pm_error *err) {
    uint32_t nb = anim->unmatched_bone_count, ni = anim->unmatched_ik_count;
    size_t bytes = 1;
    for (uint32_t i = 0; i < nb; i++) bytes += vmd->bone_names.items[bone_names[i]].length + 1;
    for (uint32_t i = 0; i < ni; i++) bytes += vmd->ik_names.items[ik_names[i]].length + 1;
    anim->names = pmi_alloc_array(&anim->allocator, bytes, 1, err, "pose: unmatched names");
    anim->unmatched = pmi_alloc_array(&anim->allocator, (size_t)nb + ni + 1, sizeof(pm_string), err,
                                      "pose: unmatched names");
    if (!anim->names || !anim->unmatched) return err ? err->type : PM_ERR_OUT_OF_MEMORY;
    char *p = anim->names;
    for (uint32_t i = 0; i < nb + ni; i++) {
        pm_string s = i < nb ? vmd->bone_names.items[bone_names[i]] : vmd->ik_names.items[ik_names[i - nb]];
        if (s.length) memcpy(p, s.data, s.length);
        p[s.length] = 0;
        anim->unmatched[i].data = p;
        anim->unmatched[i].length = s.length;
        p += s.length + 1;
    }
    return PM_OK;
}

static void fill_info(pm_anim *anim) {
    pm_anim_info *in = &anim->info;
    in->track_count = anim->track_count;
    in->key_count = anim->key_count;
    in->unmatched_bone_count = anim->unmatched_bone_count;
    in->unmatched_ik_count = anim->unmatched_ik_count;
    in->property_key_count = anim->prop_count;
    bool any = false;
    uint32_t lo = 0, hi = 0;
    for (uint32_t t = 0; t < anim->track_count; t++) {
        const pmi_track *tr = &anim->tracks[t];
        if (!tr->count) continue;
        uint32_t a = anim->frames[tr->first], b = anim->frames[tr->first + tr->count - 1];
        lo = any && lo < a ? lo : a;
        hi = any && hi > b ? hi : b;
        any = true;
    }
    if (anim->prop_count) {
        uint32_t a = anim->prop_frames[0], b = anim->prop_frames[anim->prop_count - 1];
        lo = any && lo < a ? lo : a;
        hi = any && hi > b ? hi : b;
    }
    in->first_frame = lo;
    in->last_frame = hi;
}

pm_result pm_anim_bind(const pm_skeleton *skeleton, const pm_vmd *vmd, const pm_anim_bind_options *opts,
                       pm_anim **out, pm_error *err) {
    if (out) *out = NULL;
    if (!skeleton || !vmd || !out)
        return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "pose: pm_anim_bind needs a skeleton, a motion and an output");
    pm_anim_bind_options def = {0};
    if (!opts) opts = &def;
    pm_anim *anim = pmi_alloc_array(&opts->allocator, 1, sizeof *anim, err, "pose: anim");
    if (!anim) return err ? err->type : PM_ERR_OUT_OF_MEMORY;
    anim->magic = PMI_ANIM_MAGIC;
    anim->allocator = opts->allocator;
    anim->skeleton = skeleton;
    anim->bone_count = skeleton->bone_count;
    uint32_t *name_bone = NULL, *unmatched_bones = NULL, *unmatched_ik = NULL;
    pm_result res;
    ALLOC(anim->track_of_bone, skeleton->bone_count + 1, "tracks");
    for (uint32_t i = 0; i < skeleton->bone_count; i++) anim->track_of_bone[i] = PM_NO_INDEX;
    ALLOC(anim->tracks, skeleton->bone_count + 1, "tracks");
    ALLOC(name_bone, vmd->bone_names.count + 1, "bone names");
    ALLOC(unmatched_bones, vmd->bone_names.count + 1, "bone names");
    ALLOC(unmatched_ik, vmd->ik_names.count + 1, "IK names");
    res = bind_bones(anim, vmd, opts->normalized_names, name_bone, unmatched_bones, err);
    if (res == PM_OK) res = bind_properties(anim, vmd, opts->normalized_names, unmatched_ik, err);
    if (res == PM_OK) res = keep_unmatched(anim, vmd, unmatched_bones, unmatched_ik, err);
    if (res == PM_OK) fill_info(anim);
    goto done;
fail:
    res = err ? err->type : PM_ERR_OUT_OF_MEMORY;
done:
    pmi_free(&anim->allocator, name_bone);
    pmi_free(&anim->allocator, unmatched_bones);
    pmi_free(&anim->allocator, unmatched_ik);
    if (res != PM_OK) {
        pm_anim_free(anim);
        return res;
    }
    *out = anim;
    return PM_OK;
}

void pm_anim_get_info(const pm_anim *anim, pm_anim_info *info) {
    if (!info) return;
    if (!anim || anim->magic != PMI_ANIM_MAGIC) {
        memset(info, 0, sizeof *info);
        return;
    }
    *info = anim->info;
}

static pm_string unmatched_at(const pm_anim *anim, uint32_t i, uint32_t count, uint32_t base) {
    pm_string empty = {"", 0};
    if (!anim || anim->magic != PMI_ANIM_MAGIC || i >= count) return empty;
    return anim->unmatched[base + i];
}

pm_string pm_anim_unmatched_bone(const pm_anim *anim, uint32_t i) {
    return unmatched_at(anim, i, anim ? anim->unmatched_bone_count : 0, 0);
}

pm_string pm_anim_unmatched_ik(const pm_anim *anim, uint32_t i) {
    return unmatched_at(anim, i, anim ? anim->unmatched_ik_count : 0, anim ? anim->unmatched_bone_count : 0);
}

uint32_t pm_anim_track_keys(const pm_anim *anim, uint32_t bone, uint32_t *frames, uint32_t cap) {
    if (!anim || anim->magic != PMI_ANIM_MAGIC || bone >= anim->bone_count) return 0;
    uint32_t t = anim->track_of_bone[bone];
    if (t == PM_NO_INDEX) return 0;
    const pmi_track *tr = &anim->tracks[t];
    if (frames)
        for (uint32_t i = 0; i < tr->count && i < cap; i++) frames[i] = anim->frames[tr->first + i];
    return tr->count;
}

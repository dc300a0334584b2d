/* pm_gltf_node_names: the node names of a glTF / GLB / VRM file (see procmotion/gltf.h). */
#include "procmotion/gltf.h"

#include "common/internal.h"

#include "common/json.h"
#include "gltf/glb.h"
#include "text/utf.h"

#define PMI_NAME_LIST_MAGIC 0x4c4d414eu /* "NAML" */

pm_result pm_gltf_node_names(const uint8_t *data, size_t size, const pm_allocator *allocator, pm_name_list **out,
                             pm_error *err) {
    if (!out) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "gltf: out is NULL");
    *out = NULL;
    if (!data && size) return pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "gltf: data is NULL");
    const char *json = NULL;
    size_t len = 0;
    pm_result r = pmi_gltf_json_text(data, size, &json, &len, err);
    if (r != PM_OK) return r;
    pm_result why;
    cJSON *root = pmi_json_parse(json, len, &why);
    if (why == PM_ERR_OUT_OF_MEMORY) return pmi_fail(err, why, "gltf: out of memory parsing the JSON");
    if (!root || !cJSON_IsObject(root)) {
        cJSON_Delete(root);
        return pmi_fail(err, PM_ERR_BAD_FORMAT, "gltf: the JSON does not parse as an object");
    }
    const cJSON *nodes = cJSON_GetObjectItemCaseSensitive(root, "nodes");
    uint32_t count = 0;
    size_t bytes = 0;
    if (nodes && !cJSON_IsArray(nodes)) r = pmi_fail(err, PM_ERR_BAD_FORMAT, "gltf: \"nodes\" is not an array");
    for (const cJSON *n = nodes ? nodes->child : NULL; n && r == PM_OK; n = n->next, count++) {
        const cJSON *name = cJSON_GetObjectItemCaseSensitive(n, "name");
        if (!cJSON_IsObject(n)) r = pmi_fail(err, PM_ERR_BAD_FORMAT, "gltf: node %u is not an object", count);
        else if (name && !cJSON_IsString(name))
            r = pmi_fail(err, PM_ERR_BAD_FORMAT, "gltf: node %u has a name that is not a string", count);
        else bytes += (name ? pmi_utf8_sanitize((const uint8_t *)name->valuestring, strlen(name->valuestring), NULL, 0) : 0) + 1;
    }
    pm_allocator a = {0};
    if (allocator) a = *allocator;
    pm_name_list *list = NULL;
    if (r == PM_OK) {
        /* one block: the list, the pointers, the text */
        size_t head = (sizeof *list + 7) & ~(size_t)7;
        if (count > (SIZE_MAX / 4 - head - bytes) / sizeof(char *))
            r = pmi_fail(err, PM_ERR_OUT_OF_MEMORY, "gltf: %u node names do not fit in memory", count);
        else if (!(list = pmi_alloc_array(&a, 1, head + count * sizeof(char *) + bytes, err, "gltf node names")))
            r = PM_ERR_OUT_OF_MEMORY;
        else {
            list->magic = PMI_NAME_LIST_MAGIC;
            list->count = count;
            list->allocator = a;
            list->names = (const char **)((char *)list + head);
            char *text = (char *)(list->names + count);
            uint32_t i = 0;
            for (const cJSON *n = nodes ? nodes->child : NULL; n; n = n->next, i++) {
                const cJSON *name = cJSON_GetObjectItemCaseSensitive(n, "name");
                const char *s = name ? name->valuestring : ""; /* invalid UTF-8 as U+FFFD, as the readers do */
                size_t l = pmi_utf8_sanitize((const uint8_t *)s, strlen(s), NULL, 0);
                pmi_utf8_sanitize((const uint8_t *)s, strlen(s), text, l);
                text[l] = '\0';
                list->names[i] = text;
                text += l + 1;
            }
        }
    }
    cJSON_Delete(root);
    if (r == PM_OK) *out = list;
    return r;
}

void pm_name_list_free(pm_name_list *list) {
    if (!list || list->magic != PMI_NAME_LIST_MAGIC) return;
    pm_allocator a = list->allocator;
    list->magic = 0;
    pmi_free(&a, list);
}

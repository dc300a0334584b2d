/* cJSON parsing with allocation failures told apart from syntax errors (see json.h). */
#include "common/json.h"

#include <math.h>
#include <stdarg.h>

typedef struct jp {
    const unsigned char *p, *end;
} jp;

#define PMI_JSON_NESTING_LIMIT 1000 /* cJSON's CJSON_NESTING_LIMIT */

static void ws(jp *j) {
    while (j->p < j->end && *j->p <= 32) j->p++;
}

static bool lit(jp *j, const char *word, size_t n) {
    if ((size_t)(j->end - j->p) < n || memcmp(j->p, word, n) != 0) return false;
    j->p += n;
    return true;
}

static int hex(unsigned char c) {
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* \uXXXX at p (p[0] == '\\', p[1] == 'u'): its code unit, or -1. */
static long unit(const unsigned char *p, const unsigned char *end) {
    if (end - p < 6) return -1;
    long v = 0;
    for (int i = 2; i < 6; i++) {
        int h = hex(p[i]);
        if (h < 0) return -1;
        v = v * 16 + h;
    }
    return v;
}

static bool string(jp *j) {
    if (j->p >= j->end || *j->p != '"') return false;
    const unsigned char *p = j->p + 1;
    while (p < j->end && *p != '"') {
        if (*p != '\\') {
            p++;
            continue;
        }
        if (j->end - p < 2) return false;
        switch (p[1]) {
        case 'b': case 'f': case 'n': case 'r': case 't': case '"': case '\\': case '/': p += 2; break;
        case 'u': {
            long u = unit(p, j->end);
            if (u < 0 || (u >= 0xDC00 && u <= 0xDFFF)) return false;
            if (u >= 0xD800 && u <= 0xDBFF) {
                if (j->end - p < 12 || p[6] != '\\' || p[7] != 'u') return false;
                long lo = unit(p + 6, j->end);
                if (lo < 0xDC00 || lo > 0xDFFF) return false;
                p += 12;
            } else {
                p += 6;
            }
            break;
        }
        default: return false;
        }
    }
    if (p >= j->end) return false;
    j->p = p + 1;
    return true;
}

static bool digits(jp *j) {
    const unsigned char *s = j->p;
    while (j->p < j->end && *j->p >= '0' && *j->p <= '9') j->p++;
    return j->p > s;
}

static bool number(jp *j) {
    const unsigned char *s = j->p;
    if (j->p < j->end && *j->p == '-') j->p++;
    if (j->p < j->end && *j->p == '0') j->p++;
    else if (!digits(j)) return false;
    if (j->p < j->end && *j->p == '.') {
        j->p++;
        if (!digits(j)) return false;
    }
    if (j->p < j->end && (*j->p == 'e' || *j->p == 'E')) {
        j->p++;
        if (j->p < j->end && (*j->p == '+' || *j->p == '-')) j->p++;
        if (!digits(j)) return false;
    }
    return j->p - s <= 63; /* cJSON reads at most 63 characters of a number */
}

static bool value(jp *j, int depth) {
    if (j->p >= j->end) return false;
    switch (*j->p) {
    case 'n': return lit(j, "null", 4);
    case 'f': return lit(j, "false", 5);
    case 't': return lit(j, "true", 4);
    case '"': return string(j);
    case '[':
    case '{': {
        bool object = *j->p == '{';
        if (depth >= PMI_JSON_NESTING_LIMIT) return false;
        j->p++;
        ws(j);
        if (j->p < j->end && *j->p == (object ? '}' : ']')) {
            j->p++;
            return true;
        }
        for (;;) {
            ws(j);
            if (object) {
                if (!string(j)) return false;
                ws(j);
                if (j->p >= j->end || *j->p != ':') return false;
                j->p++;
                ws(j);
            }
            if (!value(j, depth + 1)) return false;
            ws(j);
            if (j->p < j->end && *j->p == ',') {
                j->p++;
                continue;
            }
            if (j->p < j->end && *j->p == (object ? '}' : ']')) {
                j->p++;
                return true;
            }
            return false;
        }
    }
    default: return (*j->p == '-' || (*j->p >= '0' && *j->p <= '9')) && number(j);
    }
}

bool pmi_json_syntax_ok(const char *text, size_t len) {
    if (!text || !len) return false;
    jp j = {(const unsigned char *)text, (const unsigned char *)text + len};
    if (len >= 5 && memcmp(text, "\xEF\xBB\xBF", 3) == 0) j.p += 3; /* cJSON skips a BOM when 5+ bytes */
    ws(&j);
    return value(&j, 0);
}

cJSON *pmi_json_add(cJSON *to, const char *key, cJSON *item, bool *ok) {
    if (*ok && item && to && (key ? cJSON_AddItemToObject(to, key, item) : cJSON_AddItemToArray(to, item))) return item;
    cJSON_Delete(item);
    *ok = false;
    return NULL;
}
cJSON *pmi_json_add_object(cJSON *to, const char *key, bool *ok) { return pmi_json_add(to, key, cJSON_CreateObject(), ok); }
cJSON *pmi_json_add_array(cJSON *to, const char *key, bool *ok) { return pmi_json_add(to, key, cJSON_CreateArray(), ok); }
void pmi_json_add_string(cJSON *to, const char *key, const char *v, bool *ok) {
    if (*ok) pmi_json_add(to, key, cJSON_CreateString(v ? v : ""), ok);
}
void pmi_json_add_number(cJSON *to, const char *key, double v, bool *ok) {
    if (*ok) pmi_json_add(to, key, cJSON_CreateNumber(v), ok);
}
void pmi_json_add_bool(cJSON *to, const char *key, bool v, bool *ok) {
    if (*ok) pmi_json_add(to, key, cJSON_CreateBool(v), ok);
}

pm_result pmi_json_print(cJSON *root, bool ok, char *out, size_t out_cap, size_t *out_size, const char *what,
                         pm_error *err) {
    char *text = root && ok ? cJSON_PrintUnformatted(root) : NULL;
    cJSON_Delete(root);
    if (!text) return pmi_fail(err, PM_ERR_OUT_OF_MEMORY, "%s: out of memory writing JSON", what);
    size_t n = strlen(text);
    *out_size = n;
    pm_result r = PM_OK;
    if (out) {
        if (out_cap < n + 1)
            r = pmi_fail(err, PM_ERR_INVALID_ARGUMENT, "%s: JSON needs %zu bytes, the buffer has %zu", what, n + 1, out_cap);
        else memcpy(out, text, n + 1);
    }
    cJSON_free(text);
    return r;
}

cJSON *pmi_json_parse(const char *text, size_t len, pm_result *why) {
    cJSON *root = text && len ? cJSON_ParseWithLength(text, len) : NULL;
    *why = root ? PM_OK : pmi_json_syntax_ok(text, len) ? PM_ERR_OUT_OF_MEMORY : PM_ERR_BAD_FORMAT;
    return root;
}

cJSON *pmi_json_parse_for(const char *text, size_t len, const char *what, pm_result *why, pm_error *err) {
    cJSON *root = pmi_json_parse(text, len, why);
    if (!root)
        pmi_fail(err, *why, *why == PM_ERR_OUT_OF_MEMORY ? "%s: out of memory parsing the JSON" : "%s: not valid JSON", what);
    return root;
}

/* ---- reading fields ------------------------------------------------------------------------------- */

void pmi_json_describe(const cJSON *v, char *buf, size_t cap) {
    if (!v) pmi_format(buf, cap, "nothing");
    else if (cJSON_IsNumber(v)) pmi_format(buf, cap, "%g", v->valuedouble);
    else if (cJSON_IsString(v)) pmi_format(buf, cap, "\"%.24s\"", v->valuestring);
    else if (cJSON_IsNull(v)) pmi_format(buf, cap, "null");
    else if (cJSON_IsBool(v)) pmi_format(buf, cap, "%s", cJSON_IsTrue(v) ? "true" : "false");
    else if (cJSON_IsArray(v)) pmi_format(buf, cap, "an array of %d", cJSON_GetArraySize(v));
    else pmi_format(buf, cap, "an object");
}

pm_result pmi_json_fail(const pmi_json_at *at, const char *key, const cJSON *v, const char *what, ...) {
    char expected[96], got[40];
    va_list ap;
    va_start(ap, what);
    pmi_vformat(expected, sizeof expected, what, ap);
    va_end(ap);
    pmi_json_describe(v, got, sizeof got);
    const char *path = at->path ? at->path : "";
    const char *dot = path[0] && key ? "." : "";
    if (!path[0] && !key) path = "the JSON";
    return pmi_fail(at->err, at->code, "%s: %s%s%s must be %s, got %s", at->module, path, dot, key ? key : "", expected, got);
}

pm_result pmi_json_unknown(const pmi_json_at *at, const char *key, const char *fields) {
    const char *path = at->path ? at->path : "";
    return pmi_fail(at->err, at->code, "%s: %s%s%.32s is not a field here (fields: %s)", at->module, path, path[0] ? "." : "",
                    key, fields);
}

pm_result pmi_json_number(const pmi_json_at *at, const char *key, const cJSON *v, double lo, double hi, const char *unit,
                          double *out) {
    if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble) || v->valuedouble < lo || v->valuedouble > hi)
        return pmi_json_fail(at, key, v, "a number in [%g, %g]%s", lo, hi, unit ? unit : "");
    *out = v->valuedouble;
    return PM_OK;
}

pm_result pmi_json_finite(const pmi_json_at *at, const char *key, const cJSON *v, double *out) {
    if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble)) return pmi_json_fail(at, key, v, "a finite number");
    *out = v->valuedouble;
    return PM_OK;
}

pm_result pmi_json_whole(const pmi_json_at *at, const char *key, const cJSON *v, double lo, double hi, double *out) {
    double x = cJSON_IsNumber(v) ? v->valuedouble : NAN;
    if (!(x >= lo && x <= hi) || x != floor(x)) return pmi_json_fail(at, key, v, "a whole number in [%g, %g]", lo, hi);
    *out = x;
    return PM_OK;
}

pm_result pmi_json_floats(const pmi_json_at *at, const char *key, const cJSON *v, int n, double limit, float *out) {
    if (!cJSON_IsArray(v) || cJSON_GetArraySize(v) != n)
        return pmi_json_fail(at, key, v, "an array of %d numbers in [%g, %g]", n, -limit, limit);
    int i = 0;
    for (const cJSON *e = v->child; e; e = e->next, i++) {
        if (!cJSON_IsNumber(e) || !isfinite(e->valuedouble) || fabs(e->valuedouble) > limit)
            return pmi_json_fail(at, key, e, "an array of %d numbers in [%g, %g]", n, -limit, limit);
        out[i] = (float)e->valuedouble;
    }
    return PM_OK;
}

pm_result pmi_json_bool(const pmi_json_at *at, const char *key, const cJSON *v, bool *out) {
    if (!cJSON_IsBool(v)) return pmi_json_fail(at, key, v, "true or false");
    *out = cJSON_IsTrue(v);
    return PM_OK;
}

double pmi_json_float(float v) {
    if (!isfinite(v)) return v;
    /* the shortest of 6 to 9 significant digits that reads back as the same float */
    char buf[32];
    for (int digits = 6; digits <= 9; digits++) {
        pmi_format(buf, sizeof buf, "%.*g", digits, (double)v);
        double d = pmi_strtod(buf, NULL);
        if ((float)d == v) return d;
    }
    return v;
}

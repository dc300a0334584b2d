/* DSP helpers of the beat tracker: growable arrays, a radix-2 FFT, a decimating FIR. */
#include "beats_internal.h"

#include <stdlib.h>

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

bool pmi_floats_reserve(const pm_allocator *a, pmi_floats *f, size_t n) {
    if (n <= f->cap) return true;
    size_t cap = f->cap ? f->cap : 1024;
    while (cap < n) {
        if (cap > SIZE_MAX / 8) return false;
        cap *= 2;
    }
    float *v = pmi_alloc_array_unzeroed(a, cap, sizeof(float), NULL, "");
    if (!v) return false;
    if (f->n) memcpy(v, f->v, f->n * sizeof(float));
    pmi_free(a, f->v);
    f->v = v;
    f->cap = cap;
    return true;
}

bool pmi_floats_push(const pm_allocator *a, pmi_floats *f, float x) {
    if (f->n == f->cap && !pmi_floats_reserve(a, f, f->n + 1)) return false;
    f->v[f->n++] = x;
    return true;
}

void pmi_floats_release(const pm_allocator *a, pmi_floats *f) {
    pmi_free(a, f->v);
    f->v = NULL;
    f->n = f->cap = 0;
}

/* ---- FFT ---------------------------------------------------------------------------------------- */

bool pmi_fft_init(const pm_allocator *a, pmi_fft *f, uint32_t real_size) {
    uint32_t n = real_size / 2;
    f->n = n;
    f->twiddle = pmi_alloc_array(a, n, sizeof(float), NULL, "");
    f->bitrev = pmi_alloc_array(a, n, sizeof(uint32_t), NULL, "");
    f->post = pmi_alloc_array(a, 2 * (size_t)n, sizeof(float), NULL, "");
    f->work = pmi_alloc_array(a, 2 * (size_t)n, sizeof(float), NULL, "");
    if (!f->twiddle || !f->bitrev || !f->post || !f->work) return false;
    for (uint32_t i = 0; i < n / 2; i++) {
        double w = -2.0 * M_PI * i / n;
        f->twiddle[2 * i] = (float)cos(w);
        f->twiddle[2 * i + 1] = (float)sin(w);
    }
    uint32_t bits = 0;
    while ((1u << bits) < n) bits++;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t r = 0;
        for (uint32_t b = 0; b < bits; b++)
            if (i & (1u << b)) r |= 1u << (bits - 1 - b);
        f->bitrev[i] = r;
    }
    for (uint32_t k = 0; k < n; k++) {
        double w = -M_PI * k / n;
        f->post[2 * k] = (float)cos(w);
        f->post[2 * k + 1] = (float)sin(w);
    }
    return true;
}

void pmi_fft_release(const pm_allocator *a, pmi_fft *f) {
    pmi_free(a, f->twiddle);
    pmi_free(a, f->bitrev);
    pmi_free(a, f->post);
    pmi_free(a, f->work);
    memset(f, 0, sizeof *f);
}

static void fft_complex(const pmi_fft *f, float *x) {
    uint32_t n = f->n;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t j = f->bitrev[i];
        if (j > i) {
            float tr = x[2 * i], ti = x[2 * i + 1];
            x[2 * i] = x[2 * j], x[2 * i + 1] = x[2 * j + 1];
            x[2 * j] = tr, x[2 * j + 1] = ti;
        }
    }
    for (uint32_t len = 2; len <= n; len <<= 1) {
        uint32_t half = len >> 1, step = n / len;
        for (uint32_t s = 0; s < n; s += len) {
            for (uint32_t k = 0; k < half; k++) {
                float wr = f->twiddle[2 * k * step], wi = f->twiddle[2 * k * step + 1];
                float *a = x + 2 * (s + k), *b = x + 2 * (s + k + half);
                float br = b[0] * wr - b[1] * wi, bi = b[0] * wi + b[1] * wr;
                b[0] = a[0] - br, b[1] = a[1] - bi;
                a[0] += br, a[1] += bi;
            }
        }
    }
}

void pmi_fft_real_magnitude(pmi_fft *f, const float *in, float *mag) {
    uint32_t n = f->n;
    float *z = f->work;
    memcpy(z, in, 2 * (size_t)n * sizeof(float)); /* z[k] = in[2k] + i in[2k + 1] */
    fft_complex(f, z);
    /* X[k] = (Z[k] + conj Z[n-k]) / 2 - i e^{-i pi k / n} (Z[k] - conj Z[n-k]) / 2 */
    mag[0] = fabsf(z[0] + z[1]);
    mag[n] = fabsf(z[0] - z[1]);
    for (uint32_t k = 1; k < n; k++) {
        float ar = z[2 * k], ai = z[2 * k + 1], br = z[2 * (n - k)], bi = -z[2 * (n - k) + 1];
        float er = 0.5f * (ar + br), ei = 0.5f * (ai + bi);
        float or_ = 0.5f * (ar - br), oi = 0.5f * (ai - bi);
        float wr = f->post[2 * k], wi = f->post[2 * k + 1];
        /* -i * w * o */
        float tr = wr * or_ - wi * oi, ti = wr * oi + wi * or_;
        float xr = er + ti, xi = ei - tr;
        mag[k] = sqrtf(xr * xr + xi * xi);
    }
}

/* ---- decimation ------------------------------------------------------------------------------- */

bool pmi_decimator_init(const pm_allocator *a, pmi_decimator *d, uint32_t factor, uint32_t taps_per_factor) {
    memset(d, 0, sizeof *d);
    d->factor = factor;
    d->taps = factor > 1 ? taps_per_factor * factor + 1 : 1;
    d->half = d->taps / 2;
    d->h = pmi_alloc_array(a, d->taps, sizeof(float), NULL, "");
    if (!d->h) return false;
    if (factor == 1) {
        d->h[0] = 1.0f;
        return true;
    }
    /* Blackman-windowed sinc, cutoff at the output's Nyquist (0.5 / factor of the input rate). */
    double fc = 0.5 / factor, sum = 0;
    double *tmp = pmi_alloc_array(a, d->taps, sizeof(double), NULL, "");
    if (!tmp) return false;
    for (uint32_t j = 0; j < d->taps; j++) {
        double m = (double)j - d->half;
        double s = m == 0 ? 2 * fc : sin(2 * M_PI * fc * m) / (M_PI * m);
        double w = 0.42 - 0.5 * cos(2 * M_PI * j / (d->taps - 1)) + 0.08 * cos(4 * M_PI * j / (d->taps - 1));
        tmp[j] = s * w;
        sum += tmp[j];
    }
    for (uint32_t j = 0; j < d->taps; j++) d->h[j] = (float)(tmp[j] / sum);
    pmi_free(a, tmp);
    return true;
}

void pmi_decimator_release(const pm_allocator *a, pmi_decimator *d) {
    pmi_free(a, d->h);
    pmi_floats_release(a, &d->in);
    memset(d, 0, sizeof *d);
}

bool pmi_decimator_push(const pm_allocator *a, pmi_decimator *d, const float *x, size_t n, pmi_floats *out) {
    if (!pmi_floats_reserve(a, &d->in, d->in.n + n)) return false;
    if (n) memcpy(d->in.v + d->in.n, x, n * sizeof(float));
    d->in.n += n;
    d->in_total += n;
    /* output m needs inputs m * factor - half .. m * factor + half */
    for (;;) {
        uint64_t centre = d->out_next * d->factor;
        if (centre + d->half >= d->in_total) break;
        float acc = 0;
        int64_t first = (int64_t)centre - (int64_t)d->half;
        if (first >= (int64_t)d->in_base) {
            const float *xp = d->in.v + (first - (int64_t)d->in_base), *h = d->h;
            for (uint32_t j = 0; j < d->taps; j++) acc += h[j] * xp[j];
        } else {
            for (uint32_t j = 0; j < d->taps; j++) {
                int64_t idx = first + j;
                if (idx < (int64_t)d->in_base) continue; /* before the start: zeros */
                acc += d->h[j] * d->in.v[idx - (int64_t)d->in_base];
            }
        }
        if (!pmi_floats_push(a, out, acc)) return false;
        d->out_next++;
    }
    /* drop inputs no future output needs */
    uint64_t keep_from = d->out_next * d->factor;
    keep_from = keep_from > d->half ? keep_from - d->half : 0;
    if (keep_from > d->in_base) {
        size_t drop = (size_t)(keep_from - d->in_base);
        if (drop > d->in.n) drop = d->in.n;
        memmove(d->in.v, d->in.v + drop, (d->in.n - drop) * sizeof(float));
        d->in.n -= drop;
        d->in_base += drop;
    }
    return true;
}

int pmi_cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

double pmi_median(double *v, size_t n) {
    if (!n) return 0;
    qsort(v, n, sizeof *v, pmi_cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

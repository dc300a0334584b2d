/*
 * A small printf-style formatter that needs nothing from stdio, so the wasm32-wasi build has zero
 * imports (wasi-libc's snprintf drags in fd_write, fd_seek and fd_close).
 *
 * Supported: %% %c %s %.*s %d %i %u %x %X with flags '-', '0', width, precision and the length
 * modifiers h, l, ll, z; %f %e %g (and %lf, %lg) with precision. Floating-point digits are exact (up
 * to 17 significant digits for %e and %g, 20 decimals for %f), rounded half to even from the binary
 * value as glibc's printf does (number.c), which is what JSON number printing (cJSON's "%1.15g" /
 * "%1.17g") needs.
 */
#include "internal.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>

typedef struct fmt_out {
    char *buf;
    size_t cap;
    size_t len; /* total length that would have been written */
} fmt_out;

static void put_char(fmt_out *o, char c) {
    if (o->cap && o->len + 1 < o->cap) o->buf[o->len] = c;
    o->len++;
}

static void put_chars(fmt_out *o, const char *s, size_t n) {
    for (size_t i = 0; i < n; i++) put_char(o, s[i]);
}

static void put_padded(fmt_out *o, const char *s, size_t n, int width, bool left, char pad) {
    size_t w = width > 0 ? (size_t)width : 0;
    if (!left && pad == '0' && n < w && n > 0 && (s[0] == '-' || s[0] == '+')) {
        put_char(o, s[0]);
        s++;
        n--;
        w--;
    }
    if (!left)
        for (size_t i = n; i < w; i++) put_char(o, pad);
    put_chars(o, s, n);
    if (left)
        for (size_t i = n; i < w; i++) put_char(o, ' ');
}

static size_t fmt_unsigned(char *tmp, unsigned long long v, unsigned base, bool upper) {
    const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
    char rev[32];
    size_t n = 0;
    do {
        rev[n++] = digits[v % base];
        v /= base;
    } while (v);
    for (size_t i = 0; i < n; i++) tmp[i] = rev[n - 1 - i];
    return n;
}

/* Format a double like printf's %e, %f or %g into tmp (which must hold 400 bytes). */
static size_t fmt_double(char *tmp, double v, char conv, int prec, bool alt) {
    size_t n = 0;
    if (isnan(v)) {
        memcpy(tmp, "nan", 3);
        return 3;
    }
    if (signbit(v)) {
        tmp[n++] = '-';
        v = -v;
    }
    if (isinf(v)) {
        memcpy(tmp + n, "inf", 3);
        return n + 3;
    }
    if (prec < 0) prec = 6;
    if (conv == 'g' || conv == 'G') {
        int P = prec == 0 ? 1 : prec;
        if (P > 17) P = 17;
        char d[20];
        int X = 0;
        if (v != 0) X = pmi_decimal_digits(v, P, d);
        else memset(d, '0', (size_t)P);
        int nd = P;
        if (!alt)
            while (nd > 1 && d[nd - 1] == '0') nd--;
        if (X < -4 || X >= P) {
            tmp[n++] = d[0];
            if (nd > 1) {
                tmp[n++] = '.';
                memcpy(tmp + n, d + 1, (size_t)(nd - 1));
                n += (size_t)(nd - 1);
            }
            tmp[n++] = 'e';
            tmp[n++] = X < 0 ? '-' : '+';
            int ax = X < 0 ? -X : X;
            if (ax < 10) tmp[n++] = '0';
            n += fmt_unsigned(tmp + n, (unsigned)ax, 10, false);
        } else if (X >= 0) {
            for (int i = 0; i <= X; i++) tmp[n++] = i < nd ? d[i] : '0';
            if (nd > X + 1) {
                tmp[n++] = '.';
                for (int i = X + 1; i < nd; i++) tmp[n++] = d[i];
            }
        } else {
            tmp[n++] = '0';
            tmp[n++] = '.';
            for (int i = 0; i < -X - 1; i++) tmp[n++] = '0';
            for (int i = 0; i < nd; i++) tmp[n++] = d[i];
        }
        return n;
    }
    if (conv == 'e' || conv == 'E') {
        int P = prec + 1;
        if (P > 17) P = 17;
        char d[20];
        int X = 0;
        if (v != 0) X = pmi_decimal_digits(v, P, d);
        else memset(d, '0', (size_t)P);
        tmp[n++] = d[0];
        if (prec > 0) {
            tmp[n++] = '.';
            for (int i = 1; i <= prec; i++) tmp[n++] = i < P ? d[i] : '0';
        }
        tmp[n++] = conv;
        tmp[n++] = X < 0 ? '-' : '+';
        int ax = X < 0 ? -X : X;
        if (ax < 10) tmp[n++] = '0';
        n += fmt_unsigned(tmp + n, (unsigned)ax, 10, false);
        return n;
    }
    /* %f */
    if (prec > 20) prec = 20;
    if (v >= 1e17) { /* beyond exact digit extraction: print in scientific form */
        return n + fmt_double(tmp + n, v, 'e', 16, false);
    }
    char fd[48];
    size_t len = pmi_decimal_fixed(v, prec, fd);
    size_t ip = len - (size_t)prec;
    memcpy(tmp + n, fd, ip);
    n += ip;
    if (prec > 0) {
        tmp[n++] = '.';
        memcpy(tmp + n, fd + ip, (size_t)prec);
        n += (size_t)prec;
    }
    return n;
}

size_t pmi_vformat(char *buf, size_t cap, const char *fmt, va_list ap) {
    fmt_out o = {buf, cap, 0};
    for (const char *f = fmt; *f; f++) {
        if (*f != '%') {
            put_char(&o, *f);
            continue;
        }
        f++;
        bool left = false, alt = false, plus = false;
        char pad = ' ';
        for (;; f++) {
            if (*f == '-') left = true;
            else if (*f == '0') pad = '0';
            else if (*f == '#') alt = true;
            else if (*f == '+') plus = true;
            else break;
        }
        int width = 0, prec = -1;
        if (*f == '*') {
            width = va_arg(ap, int);
            f++;
        } else
            while (*f >= '0' && *f <= '9') width = width * 10 + (*f++ - '0');
        if (*f == '.') {
            f++;
            prec = 0;
            if (*f == '*') {
                prec = va_arg(ap, int);
                f++;
            } else
                while (*f >= '0' && *f <= '9') prec = prec * 10 + (*f++ - '0');
        }
        int lng = 0; /* 0 int, 1 long, 2 long long, 3 size_t, -1 short */
        for (;; f++) {
            if (*f == 'l') lng = lng == 1 ? 2 : 1;
            else if (*f == 'z') lng = 3;
            else if (*f == 'h') lng = -1;
            else break;
        }
        char tmp[400];
        size_t n = 0;
        switch (*f) {
        case '%': put_char(&o, '%'); break;
        case 'c': tmp[0] = (char)va_arg(ap, int); put_padded(&o, tmp, 1, width, left, ' '); break;
        case 's': {
            const char *s = va_arg(ap, const char *);
            if (!s) s = "(null)";
            size_t len = 0;
            while ((prec < 0 || len < (size_t)prec) && s[len]) len++; /* never read past the precision */
            put_padded(&o, s, len, width, left, ' ');
            break;
        }
        case 'd':
        case 'i': {
            long long v = lng == 2 ? va_arg(ap, long long)
                          : lng == 1 ? va_arg(ap, long)
                          : lng == 3 ? (long long)va_arg(ap, size_t)
                                     : va_arg(ap, int);
            unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;
            if (v < 0) tmp[n++] = '-';
            else if (plus) tmp[n++] = '+';
            n += fmt_unsigned(tmp + n, u, 10, false);
            put_padded(&o, tmp, n, width, left, pad);
            break;
        }
        case 'u':
        case 'x':
        case 'X': {
            unsigned long long u = lng == 2 ? va_arg(ap, unsigned long long)
                                   : lng == 1 ? va_arg(ap, unsigned long)
                                   : lng == 3 ? va_arg(ap, size_t)
                                              : va_arg(ap, unsigned);
            n = fmt_unsigned(tmp, u, *f == 'u' ? 10 : 16, *f == 'X');
            put_padded(&o, tmp, n, width, left, pad);
            break;
        }
        case 'f':
        case 'F':
        case 'e':
        case 'E':
        case 'g':
        case 'G': {
            double v = va_arg(ap, double);
            if (plus && !signbit(v)) tmp[n++] = '+';
            n += fmt_double(tmp + n, v, *f == 'F' ? 'f' : *f, prec, alt);
            put_padded(&o, tmp, n, width, left, isfinite(v) ? pad : ' ');
            break;
        }
        case '\0': f--; break;
        default: put_char(&o, '%'); put_char(&o, *f); break;
        }
    }
    if (cap) buf[o.len < cap ? o.len : cap - 1] = '\0';
    return o.len;
}

size_t pmi_format(char *buf, size_t cap, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    size_t n = pmi_vformat(buf, cap, fmt, ap);
    va_end(ap);
    return n;
}

/* cJSON's only uses of sprintf/sscanf: "%1.15g", "%1.17g", "%d", "%i.%i.%i" and "%lg". */
int pmi_cjson_sprintf(char *out, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    size_t n = pmi_vformat(out, 64, fmt, ap);
    va_end(ap);
    return (int)n;
}

int pmi_cjson_sscanf(const char *in, const char *fmt, ...) {
    (void)fmt; /* always "%lg" */
    va_list ap;
    va_start(ap, fmt);
    double *out = va_arg(ap, double *);
    va_end(ap);
    char *end = NULL;
    double v = pmi_strtod(in, &end);
    if (end == in) return 0;
    *out = v;
    return 1;
}

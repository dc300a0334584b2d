/* Table-free log, log2, exp and pow from Sun's fdlibm (FreeBSD msun e_log.c, e_log2.c, e_exp.c, e_pow.c;
 * musl carries e_log.c, e_log2.c and e_pow.c for -Oz; fdlibm.c keeps Sun's notice). The beat tracker
 * calls these instead of libm's so that every target (native, WASI, wasm) computes the same bits and the
 * wasm carries none of musl's math tables (__log_data 4240 bytes, __pow_log_data 4168, __exp_data 2160,
 * __log2_data 2192). Each is within 1 ulp of the exact value (tests/c/test_fdlibm.c); special values as
 * C99 Annex F (errno is not set). Compiled with -ffp-contract=off. exp and log2 differ from musl's
 * table-driven ones in the last bit for about 10 % and 0.1 % of arguments, so the real-time tracker's
 * readings differ from those of the builds before them in the last bits. */
#ifndef PROCMOTION_FDLIBM_H
#define PROCMOTION_FDLIBM_H

double pmi_log(double x);
double pmi_log2(double x);
double pmi_exp(double x);
double pmi_pow(double x, double y);

/* musl's huge-argument trigonometric reduction, replaced in the Emscripten and WASI links
 * (--wrap=__rem_pio2_large): rem_pio2_huge.c says what it gives up. */
int __wrap___rem_pio2_large(double *x, double *y, int e0, int nx, int prec);

#endif

/* Table-free log and pow from Sun's fdlibm (FreeBSD msun e_log.c, e_log2.c, e_pow.c, as musl carries
 * them for -Oz; fdlibm.c keeps Sun's notice). The beat tracker calls these instead of libm's so that
 * every target (native, WASI, wasm) computes the same bits and the wasm carries none of musl's log and
 * pow tables (__log_data 4240 bytes, __pow_log_data 4168). Each is within 1 ulp of the exact value
 * (tests/c/test_fdlibm.c); special values as C99 Annex F (errno is not set). Compiled with
 * -ffp-contract=off. musl's table-driven exp and log2 stay: fdlibm's differ from them in the last bit
 * for about 10 % and 0.1 % of arguments, enough to move the real-time tracker's tempo by an ulp. */
#ifndef PROCMOTION_FDLIBM_H
#define PROCMOTION_FDLIBM_H

double pmi_log(double x);
double pmi_pow(double x, double y);

/* musl's huge-argument trigonometric reduction, replaced in the Emscripten and WASI links
 * (--wrap=__rem_pio2_large): rem_pio2_huge.c says what it gives up. */
int __wrap___rem_pio2_large(double *x, double *y, int e0, int nx, int prec);

#endif

/* The living-motion primitives the lifelike layer is made of, shared with the generators of its layer
 * (idle): hashed random numbers that can be drawn in any order, smooth noise (optionally periodic)
 * and the breathing wave; the easing curves are math/inline.h's. Everything is a pure function of its
 * arguments. */
#ifndef PROCMOTION_LIFELIKE_SIGNAL_H
#define PROCMOTION_LIFELIKE_SIGNAL_H

#include "math/inline.h"

#include <math.h>
#include <stdint.h>

/* A well-mixed 32-bit hash of three words (the seed, a stream, an index). */
static inline uint32_t pmi_hash3(uint32_t a, uint32_t b, uint32_t c) {
    uint32_t h = a * 0x9E3779B1u ^ (b + 0x7F4A7C15u) * 0x85EBCA77u ^ (c + 0x165667B1u) * 0xC2B2AE3Du;
    h ^= h >> 15, h *= 0x2C1B3C6Du, h ^= h >> 12, h *= 0x297A2D39u, h ^= h >> 15;
    return h;
}

/* Uniform in [0, 1): draw `i` of stream `stream`. */
static inline double pmi_uniform(uint32_t seed, uint32_t stream, int64_t i) {
    return (pmi_hash3(seed, stream, (uint32_t)i ^ (uint32_t)((uint64_t)i >> 32)) >> 8) * (1.0 / 16777216.0);
}

/* Smooth noise in [-1, 1]: random values at whole x, joined by minimum-jerk steps (continuous in value,
 * slope and curvature). period > 0: the lattice repeats every `period` whole units of x. */
static inline double pmi_noise(uint32_t seed, uint32_t stream, double x, int64_t period) {
    double fl = floor(x);
    int64_t i = (int64_t)fl;
    int64_t a = i, b = i + 1;
    if (period > 0) {
        a = ((a % period) + period) % period;
        b = ((b % period) + period) % period;
    }
    double va = 2 * pmi_uniform(seed, stream, a) - 1, vb = 2 * pmi_uniform(seed, stream, b) - 1;
    return va + (vb - va) * pmi_minjerk(x - fl);
}

/* The breathing wave at phase p (cycles; any real): 0 at the start of an inhale, 1 at its top; 40 % of
 * a cycle inhaling, 60 % exhaling, both eased. */
static inline double pmi_breath(double p) {
    p -= floor(p);
    return p < 0.4 ? pmi_minjerk(p / 0.4) : 1 - pmi_minjerk((p - 0.4) / 0.6);
}

#endif

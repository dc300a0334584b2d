// Order statistics the bench's measures share.

/** The q-quantile of `values` (0..1), interpolated between neighbours; NaN for none. */
export function quantile(values, q) {
  const s = Float64Array.from(values).sort();
  if (s.length === 0) return NaN;
  const i = (s.length - 1) * q, lo = Math.floor(i), hi = Math.ceil(i);
  return s[lo] + (s[hi] - s[lo]) * (i - lo);
}

/** The median: the mean of the middle two of an even count. */
export const median = (values) => quantile(values, 0.5);

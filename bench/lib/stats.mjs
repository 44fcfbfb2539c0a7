// Latency summaries over raw samples (ms). Samples are kept whole: runs are bounded, so an
// exact percentile is cheaper to trust than a histogram's approximation.
export function summarize(samples) {
  if (samples.length === 0) return { count: 0, p50: NaN, p99: NaN, max: NaN, avg: NaN };
  const sorted = Float64Array.from(samples).sort();
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  const sum = sorted.reduce((a, b) => a + b, 0);
  return {
    count: sorted.length,
    p50: at(0.5),
    p99: at(0.99),
    max: sorted[sorted.length - 1],
    avg: sum / sorted.length,
  };
}

export const fmt = (n, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : "n/a");

/** The middle value; the mean of the two middle ones for an even count. */
export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

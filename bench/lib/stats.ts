/** Small statistics helpers for the bench (nearest-rank percentiles). */

export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank] ?? Number.NaN;
}

export function median(values: readonly number[]): number {
  return percentile(values, 50);
}

export function formatInt(value: number): string {
  return Math.round(value).toLocaleString('en-US');
}

export function formatMs(value: number, digits = 2): string {
  return Number.isFinite(value) ? `${value.toFixed(digits)} ms` : 'n/a';
}

export function ratio(a: number, b: number): string {
  return b === 0 ? 'n/a' : `${(a / b).toFixed(2)}×`;
}

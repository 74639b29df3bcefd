/** A duration as a person reads it, the same in the checker's messages and on the page: "80 ms", "1.6 s", "120 s", "forever". */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms)) return 'forever';
  if (Math.abs(ms) < 1000) return `${Math.round(ms)} ms`;
  const seconds = ms / 1000;
  return `${Math.abs(seconds) >= 100 ? Math.round(seconds) : seconds.toFixed(1)} s`;
}

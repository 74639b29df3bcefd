/**
 * Lab figures as a person reads them, the same in the checker's messages and on the page. The rounding lives
 * here once; a language changes only the decimal mark (`mark`: "," in Norwegian), never the digits or units.
 */
function withMark(text: string, mark: string): string {
  return mark === '.' ? text : text.replace('.', mark);
}

/** A duration: "80 ms", "1.6 s", "120 s", "forever". */
export function formatDuration(ms: number, mark = '.'): string {
  if (!Number.isFinite(ms)) return 'forever';
  if (Math.abs(ms) < 1000) return `${Math.round(ms)} ms`;
  const seconds = ms / 1000;
  return `${Math.abs(seconds) >= 100 ? Math.round(seconds) : withMark(seconds.toFixed(1), mark)} s`;
}

/** A point on the lab clock: "820 ms", "1.24 s". */
export function formatLabTime(t: number, mark = '.'): string {
  if (Math.abs(t) < 1000) return `${Math.round(t)} ms`;
  return `${withMark((t / 1000).toFixed(2), mark)} s`;
}

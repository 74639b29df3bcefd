/** Every string of a catalogue by its dotted path (`classes.title`). No JSON imports: the e2e specs read catalogues from disk with it. */
export function messageLeaves(value: unknown, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  if (typeof value === 'string') out.set(prefix, value);
  else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) for (const [p, s] of messageLeaves(v, prefix ? `${prefix}.${k}` : k)) out.set(p, s);
  }
  return out;
}

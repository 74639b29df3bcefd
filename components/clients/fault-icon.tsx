/**
 * A shape per client fault, beside its word on the panel's dense rows (five
 * clients): pause = two bars, resume = a play triangle, crash = a cross,
 * drop connections = a cut line. Decorative: the word and the accessible
 * name ("Pause Client 3") say it; media shapes are not mirrored in Arabic.
 */
export type FaultIconKind = 'pause' | 'resume' | 'crash' | 'disconnect';

export function FaultIcon({ kind, className }: { kind: FaultIconKind; className?: string }) {
  return (
    <svg className={className} viewBox="0 0 12 12" width="12" height="12" aria-hidden="true" focusable="false">
      {kind === 'pause' && <path d="M3.5 2v8M8.5 2v8" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" />}
      {kind === 'resume' && <path d="M3 1.8v8.4L10.2 6z" fill="currentColor" />}
      {kind === 'crash' && <path d="M2.5 2.5 9.5 9.5M9.5 2.5 2.5 9.5" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />}
      {kind === 'disconnect' && (
        <path d="M1 6h3.2M7.8 6H11M5.2 9.5 6.8 2.5" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" />
      )}
    </svg>
  );
}

/**
 * A shape per node state, so the state never rests on colour alone:
 * up = a tick in a circle, down = a cross, paused = two bars.
 * Decorative: the state is always written next to it.
 */
import type { NodeState } from '@/lib/cluster';

export function StateIcon({ state, className }: { state: NodeState; className?: string }) {
  return (
    <svg className={className} viewBox="0 0 16 16" width="16" height="16" aria-hidden="true" focusable="false">
      {state === 'up' && (
        <>
          <circle cx="8" cy="8" r="7" fill="currentColor" />
          <path d="M4.5 8.2 7 10.6 11.5 5.6" fill="none" stroke="var(--surface)" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round" />
        </>
      )}
      {state === 'down' && (
        <>
          <circle cx="8" cy="8" r="7" fill="currentColor" />
          <path d="M5.3 5.3 10.7 10.7M10.7 5.3 5.3 10.7" stroke="var(--surface)" strokeWidth="1.8" strokeLinecap="round" />
        </>
      )}
      {state === 'paused' && (
        <>
          <circle cx="8" cy="8" r="7" fill="currentColor" />
          <path d="M6.2 5v6M9.8 5v6" stroke="var(--surface)" strokeWidth="1.9" strokeLinecap="round" />
        </>
      )}
    </svg>
  );
}

'use client';
/**
 * The lab clock, estimated in the browser and re-read on a timer, so TTL
 * bars and restart countdowns move between the server's samples.
 */
import { useEffect, useState } from 'react';
import { labNow } from './lab-state';
import { useLabStore } from './lab-provider';

/** Lab time now (ms), refreshed every `intervalMs` while `active`; null before the first snapshot. */
export function useLabClock(active: boolean, intervalMs = 100): number | null {
  const offset = useLabStore((s) => s.clockOffsetMs);
  const [localNow, setLocalNow] = useState(() => (typeof performance === 'undefined' ? 0 : performance.now()));

  useEffect(() => {
    if (!active) return;
    setLocalNow(performance.now());
    const timer = window.setInterval(() => setLocalNow(performance.now()), intervalMs);
    return () => window.clearInterval(timer);
  }, [active, intervalMs]);

  return labNow({ clockOffsetMs: offset }, localNow);
}

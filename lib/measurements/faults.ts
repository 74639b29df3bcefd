/**
 * Fault bands: when each fault of the run was in effect, for drawing behind the measurements on the timeline's axis.
 * A lasting fault (its catalogue entry says so: a node killed or paused, a link cut or delayed, …) runs
 * from its `ok` to the `ok` of a recovery on the same target (or, for a timed client pause, its client's resume), else
 * to the end of the run. A fault that acts at once (a clock jump, a crash, a failover) is a band of no width.
 */
import { clientLabel } from '../cluster';
import { isLasting, isRecovery, type FaultOp } from '../faults/catalogue';
import type { HistoryEvent } from '../history';
import type { Words } from '../words';

export interface FaultBand {
  op: FaultOp;
  /** Who was hit: "Node 3", "Client 1 → Node 2". */
  target: string;
  /** In words, as the history has it: "Node 3 killed (SIGKILL)". */
  label: string;
  /** `label` as data, when the history had it: a page writes it in its language. */
  labelWords?: Words;
  /** Lab clock. */
  from: number;
  to: number;
  /** Acts at once: drawn as a line. */
  instant: boolean;
  /** Still in effect when the run's history ends. */
  open: boolean;
}

export function faultBands(history: readonly HistoryEvent[], endT?: number): FaultBand[] {
  const bands: FaultBand[] = [];
  const open = new Map<string, FaultBand>();
  const close = (target: string, t: number) => {
    const band = open.get(target);
    if (!band) return;
    open.delete(target);
    band.to = Math.max(band.from, t);
    band.open = false;
  };
  for (const e of history) {
    if (e.type === 'client' && e.event === 'resume') {
      close(clientLabel(e.client), e.t);
      continue;
    }
    if (e.type !== 'nemesis' || e.phase !== 'ok') continue;
    if (isRecovery(e.op)) {
      close(e.target, e.t);
      continue;
    }
    const lasting = isLasting(e.op);
    // A second fault on a target already hit (a delay changed while it lasts) continues the band already drawn.
    if (lasting && open.has(e.target)) continue;
    const band: FaultBand = { op: e.op, target: e.target, label: e.detail ?? `${e.op} ${e.target}`, ...(e.detail !== undefined && e.detailWords ? { labelWords: e.detailWords } : {}), from: e.t, to: e.t, instant: !lasting, open: lasting };
    bands.push(band);
    if (lasting) open.set(e.target, band);
  }
  const end = endT ?? history[history.length - 1]?.t ?? 0;
  for (const band of open.values()) band.to = Math.max(band.from, end);
  return bands;
}

/**
 * Labs "Check my solution" borrows beside the learner's own, so the graded
 * runs play side by side: most of a run is waiting (TTLs, pauses, jobs), so
 * three labs check in about a third of the time on two cores. They are
 * ordinary labs of the server's manager — counted against its cap, their runs
 * admitted like any other — and only taken when there is room: a full server
 * grades in the learner's lab alone, slower and with the same verdict. They
 * count against the browser's share of labs (own + spares), so many checks
 * or searches at once from one browser borrow no more than one would.
 */
import type { Topology } from '@/lib/cluster';
import type { Lab } from '../lab/lab';
import type { LabManager } from '../lab/lab-manager';
import { LabRuns } from '../runs/lab-runs';
import type { RunAdmission } from '../runs/run-admission';
import type { SandboxPool } from '../sandbox';
import { refusal } from '@/lib/refusal-words';
import { LabOperationError } from '@/lib/result';
import { log } from '../ops/log';

export interface SpareLabs {
  runs: LabRuns[];
  /** Destroys the borrowed labs (their nodes and folders); safe to call once the grading is over. */
  release(): Promise<void>;
}

export const NO_SPARES: SpareLabs = { runs: [], release: async () => undefined };

/** The viewer a borrowed lab is attached to, so the idle sweep leaves it alone while it grades. */
const GRADER_VIEWER = 'grader';

export async function borrowSpareLabs(
  labs: LabManager,
  topology: Topology,
  count: number,
  sandbox: SandboxPool | null | undefined,
  admission: RunAdmission | null,
  /** The browser the spares count against, and how many labs it may hold in all; null: a classroom's lab. */
  holder: { browser: string; limit: number } | null = null,
): Promise<SpareLabs> {
  if (count <= 0 || !sandbox) return NO_SPARES;
  const borrowed: Lab[] = [];
  for (let i = 0; i < count; i++) {
    try {
      const lab = holder ? await labs.createSpareFor(holder.browser, holder.limit, topology, 3) : await labs.create(topology, 3);
      labs.attach(lab.id, GRADER_VIEWER);
      borrowed.push(lab);
    } catch (error) {
      // A full server or a browser at its share is the design: grade with what we have. Anything else (a node
      // that would not start) still leaves the learner's own lab to grade in, so the check goes on, and the
      // operator is told, never nobody.
      if (!(error instanceof LabOperationError && error.code === 'lab-full')) {
        log.warn({ err: error, topology, borrowed: borrowed.length }, 'a spare lab for a check failed to start; grading with fewer labs');
      }
      break;
    }
  }
  return {
    runs: borrowed.map((lab) => new LabRuns(lab, sandbox, admission, holder?.browser ?? null)),
    release: async () => {
      await Promise.all(borrowed.map((lab) => labs.destroy(lab.id, refusal('closed.checkEnded'))));
    },
  };
}

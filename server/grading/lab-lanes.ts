/**
 * Several labs playing one piece of work side by side — the graded runs of a
 * check, the schedules of a search — each taking the next item as it comes
 * free. Whoever finds what the work looks for stops the others' current runs;
 * a run stopped that way comes back as null, while a run stopped by anything
 * else (the learner pressed Run in that lab) ends the work with a conflict.
 */
import { LabOperationError } from '@/lib/result';
import type { RunEnded, RunInfo } from '@/lib/run';
import type { LabRuns, RunOptions, RunStart } from '../runs/lab-runs';
import { refusal } from '@/lib/refusal-words';

export class LabLanes {
  private readonly aborted = new Set<LabRuns>();

  constructor(
    /** The learner's own lab first: what it runs last is what its tab shows. */
    readonly labs: readonly LabRuns[],
    /** What the learner pressed, for the conflict's words: "Check my solution", "Explore". */
    private readonly action: string,
  ) {}

  get own(): LabRuns {
    return this.labs[0]!;
  }

  /** Runs `work` in every lab at once and waits for all of them. */
  async each(work: (lab: LabRuns) => Promise<void>): Promise<void> {
    await Promise.all(this.labs.map(work));
  }

  /** Found: stop what the other labs are running (their plays answer null). */
  stopOthers(except: LabRuns): void {
    for (const lab of this.labs) if (lab !== except) this.stop(lab);
  }

  /** Stops what one lab is running (its play answers null). */
  stop(lab: LabRuns): void {
    this.aborted.add(lab);
    void lab.stop();
  }

  /** The learner's lab is needed again after a stop (to replay what another lab found). */
  reopenOwn(): void {
    this.aborted.delete(this.own);
  }

  /** Every lab is needed again: the failure that stopped them did not stand, and the work goes on. */
  reopenAll(): void {
    this.aborted.clear();
  }

  /** Plays one run to its end; null when `stopOthers` stopped it. */
  async play(lab: LabRuns, input: RunStart, options: RunOptions = {}): Promise<{ info: RunInfo; ended: RunEnded } | null> {
    const info = await lab.start(input, options);
    const ended = await lab.whenEnded(info.runId);
    if (ended.outcome.status === 'stopped') {
      if (this.aborted.has(lab)) return null;
      throw new LabOperationError('conflict', refusal('run.laneStopped', { action: this.action }));
    }
    return { info, ended };
  }
}

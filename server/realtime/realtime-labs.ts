/**
 * What the socket layer keeps per lab, whichever sockets watch it: its runs
 * (created with the first run, their events sent to the lab's room), its
 * publication, the rate allowance its sockets share, the long commands going
 * on in it, and where a rebuilt lab's view starts in its history.
 */
import type { Topology } from '@/lib/cluster';
import { LabOperationError } from '@/lib/result';
import { refusal } from '@/lib/refusal-words';
import type { Lab } from '../lab/lab';
import type { LabManager } from '../lab/lab-manager';
import { LabRuns } from '../runs/lab-runs';
import { borrowSpareLabs } from '../grading/spare-labs';
import type { LabCommandContext } from './lab-commands';
import { publishLab } from './lab-publisher';
import { labRoom, viewOf, type LabView } from './lab-view';
import { TokenBucket } from './token-bucket';
import type { LabServer, RealtimeOptions } from './socket-server';

export class RealtimeLabs {
  private readonly runsByLab = new WeakMap<Lab, LabRuns>();
  private readonly unpublish = new Map<string, () => void>();
  /** One bucket per lab, shared by all its sockets; dropped with the lab. */
  private readonly buckets = new Map<string, TokenBucket>();
  /** Checks, searches and experiments going on in a lab: runs one after another, with moments between them. */
  private readonly longWork = new Map<string, number>();
  /** Where a tab's view of its lab starts in the history: set when the tab moved to another page and the lab was rebuilt. */
  private readonly viewFrom = new WeakMap<Lab, number>();

  constructor(
    private readonly io: LabServer,
    readonly labs: LabManager,
    private readonly options: RealtimeOptions,
  ) {
    // A lab with a run going is never idle: it does not yield to a newcomer.
    labs.setBusyProbe((lab) => this.runsByLab.get(lab)?.current != null);
  }

  /** A lab's runs, created with the first run; their events go to the lab's room. */
  runsOf(lab: Lab): LabRuns {
    let runs = this.runsByLab.get(lab);
    if (runs) return runs;
    if (!this.options.sandbox) throw new LabOperationError('forbidden', refusal('run.noSandbox'));
    const labs = this.labs;
    // Counted against the browser holding the lab: one browser's labs share one browser's share of runs.
    runs = new LabRuns(lab, this.options.sandbox, this.options.admission ?? null, labs.ownerOf(lab.id) ?? null);
    const room = this.io.to(labRoom(lab.id));
    runs.on('waiting', ({ ahead }) => room.emit('run:waiting', { labId: lab.id, ahead }));
    runs.on('started', (info) => {
      labs.touch(lab.id);
      room.emit('run:started', { ...info, labId: lab.id });
    });
    runs.on('verdict', (v) => room.emit('run:verdict', { ...v, labId: lab.id }));
    runs.on('diagnostic', (d) => room.emit('run:diagnostic', { ...d, labId: lab.id }));
    runs.on('ended', (e) => {
      // Idle from here: a lab nothing happens in may yield to a newcomer at a full server.
      labs.touch(lab.id);
      room.emit('run:ended', { ...e, labId: lab.id });
    });
    this.runsByLab.set(lab, runs);
    return runs;
  }

  /** The lab's state goes to its room from now until it closes. */
  publish(lab: Lab): void {
    if (this.unpublish.has(lab.id)) return;
    this.unpublish.set(lab.id, publishLab(this.io, lab));
    lab.once('closed', () => {
      this.unpublish.get(lab.id)?.();
      this.unpublish.delete(lab.id);
      this.io.in(labRoom(lab.id)).socketsLeave(labRoom(lab.id));
    });
  }

  /** What a viewer joining now is sent: the lab, its run, and its history from where this page's view starts. */
  view(lab: Lab): LabView {
    return viewOf(lab, this.runsByLab.get(lab)?.catchUp() ?? null, this.viewFrom.get(lab) ?? 0);
  }

  /** The allowance every socket on `lab` shares; null when the server sets none. */
  bucket(lab: Lab): TokenBucket | null {
    const limit = this.options.perLabLimit;
    if (!limit) return null;
    let bucket = this.buckets.get(lab.id);
    if (!bucket) {
      bucket = new TokenBucket(limit.burst, limit.perSecond);
      this.buckets.set(lab.id, bucket);
      lab.once('closed', () => this.buckets.delete(lab.id));
    }
    return bucket;
  }

  /** A lab never leaves its tab mid-run or mid-check ("Use the lab here"). */
  working(lab: Lab): boolean {
    return this.runsByLab.get(lab)?.current != null || (this.longWork.get(lab.id) ?? 0) > 0;
  }

  /** `work` counted as long work going on in `lab` while it lasts. */
  async longCommand<T>(lab: Lab, work: () => Promise<T>): Promise<T> {
    this.longWork.set(lab.id, (this.longWork.get(lab.id) ?? 0) + 1);
    try {
      return await work();
    } finally {
      const left = (this.longWork.get(lab.id) ?? 1) - 1;
      if (left > 0) this.longWork.set(lab.id, left);
      else this.longWork.delete(lab.id);
    }
  }

  /**
   * The tab's lab made anew in place (same id, so the tab keeps one lab):
   * its run stopped and forgotten, fresh nodes of `topology`, and the view's
   * history starting now, so nothing of the previous page shows.
   */
  async rebuild(lab: Lab, topology: Topology, clients: number): Promise<void> {
    const runs = this.runsByLab.get(lab);
    if (runs) {
      this.runsByLab.delete(lab);
      // Retired, not only stopped: a check or a search of the page left would start its next run here.
      await runs.retire();
    }
    lab.clients = clients;
    await lab.restore(topology);
    this.viewFrom.set(lab, lab.history.length);
  }

  /** What a command on `lab` acts on; the grader's progress goes to everyone watching the lab. */
  commandContext(lab: Lab): LabCommandContext {
    const room = () => this.io.to(labRoom(lab.id));
    const options = this.options;
    return {
      lab,
      runs: () => this.runsOf(lab),
      existingRuns: () => this.runsByLab.get(lab) ?? null,
      notify: (progress) => room().emit('exercise:progress', { ...progress, labId: lab.id }),
      notifyExplore: (progress) => room().emit('explore:progress', { ...progress, labId: lab.id }),
      notifyExperiment: (progress) => room().emit('experiment:progress', { ...progress, labId: lab.id }),
      spareLabs: (topology) =>
        borrowSpareLabs(this.labs, topology, options.gradingSpareLabs ?? 0, options.sandbox, options.admission ?? null, this.spareHolder(lab)),
    };
  }

  /**
   * Whose share a check's spare labs count against: the browser holding the lab (own labs), so twelve searches from
   * one cookie borrow no more than one browser's spares. A classroom's lab has no holder: its spares are unbounded
   * by browser, as its lab is (only its instructor runs checks there).
   */
  private spareHolder(lab: Lab): { browser: string; limit: number } | null {
    const browser = this.labs.ownerOf(lab.id);
    const perBrowser = this.options.labsPerBrowser;
    return browser && perBrowser !== undefined ? { browser, limit: perBrowser + (this.options.gradingSpareLabs ?? 0) } : null;
  }
}

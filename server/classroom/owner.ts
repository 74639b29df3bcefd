/**
 * The classrooms whose lab runs on this server (their owner): requests from
 * any server about them (a member's view, an instructor's command, a demo,
 * the end), the end of a classroom (its members told, its record deleted,
 * its lab destroyed), and the sweep that ends idle ones.
 */
import type { ClassroomDemoStarted } from '@/lib/classroom';
import { LabOperationError, ok, toFailure, type Result } from '@/lib/result';
import type { RunInfo } from '@/lib/run';
import type { Lab } from '../lab/lab';
import { labRoom } from '../realtime/lab-view';
import { resolveDemo } from './demos';
import { classRoom, classroomGone, instructorsRoom, type HubParts, type OwnerRequest } from './hub-parts';
import { refusal } from '@/lib/refusal-words';
import type { Said } from '@/lib/words';

const idleWords = (ms: number): Said =>
  ms >= 120_000 ? refusal('ended.idleMinutes', { n: Math.round(ms / 60_000) }) : refusal('ended.idleSeconds', { n: Math.round(ms / 1000) });
const instructorGoneWords = (ms: number): Said =>
  ms >= 120_000
    ? refusal('ended.instructorGoneMinutes', { n: Math.round(ms / 60_000) })
    : refusal('ended.instructorGoneSeconds', { n: Math.round(ms / 1000) });

export class ClassroomOwner {
  private readonly owned = new Map<string, Lab>();

  constructor(
    private readonly parts: HubParts,
    private readonly idleMs: number,
    /** A class whose instructor's last tab left this long ago ends, however busy its learners are. */
    private readonly instructorAwayMs: number,
  ) {}

  has(code: string): boolean {
    return this.owned.has(code);
  }

  get count(): number {
    return this.owned.size;
  }

  /** True for a lab that belongs to a classroom of this server (nobody may take it over with lab:join). */
  isClassroomLab(labId: string): boolean {
    for (const lab of this.owned.values()) if (lab.id === labId) return true;
    return false;
  }

  /** A new classroom of this server, with its lab; a lab that closes ends it. */
  adopt(code: string, lab: Lab): void {
    this.owned.set(code, lab);
    lab.once('closed', () => void this.end(code, refusal('ended.labClosed')));
  }

  /** An owner request, on the owner. Never throws: errors become Results, which travel between servers. */
  async handle(request: OwnerRequest): Promise<Result<unknown>> {
    try {
      const lab = this.owned.get(request.code);
      if (!lab || lab.closed) throw classroomGone(request.code);
      const store = this.parts.store();
      switch (request.type) {
        case 'view':
          return ok(this.parts.context().view(lab));
        case 'command': {
          await store.update(request.code, { lastActiveAt: Date.now() });
          return ok(await this.parts.context().runLabCommand(lab, request.command, request.input));
        }
        case 'demo': {
          const resolved = resolveDemo(request.ref, request.seed);
          const run = (await this.parts.context().runLabCommand(lab, 'run:start', resolved.run)) as RunInfo;
          const demo: ClassroomDemoStarted = { ref: request.ref, title: resolved.title, seed: resolved.seed, run };
          await store.update(request.code, { demo, lastActiveAt: Date.now() });
          this.parts.io().to(classRoom(request.code)).emit('classroom:demo', { ...demo, code: request.code });
          return ok(demo);
        }
        case 'end':
          await this.end(request.code, refusal('ended.byInstructor'));
          return ok(null);
      }
    } catch (error) {
      if (!(error instanceof LabOperationError)) console.error(`[classroom] ${request.type} failed:`, error);
      return toFailure(error);
    }
  }

  /** Ends a classroom this server owns: tells every member (on any server), forgets it, destroys its lab. */
  async end(code: string, reason: Said): Promise<void> {
    const lab = this.owned.get(code);
    if (!lab) return;
    this.owned.delete(code);
    const io = this.parts.ioIfAttached();
    if (io) {
      io.to(classRoom(code)).emit('classroom:ended', { code, reason: reason.message, words: reason.words });
      io.in(classRoom(code)).socketsLeave([classRoom(code), instructorsRoom(code), labRoom(lab.id)]);
    }
    await this.parts
      .store()
      .delete(code)
      .catch((error: unknown) => console.error('[classroom] could not delete its record:', error));
    if (!lab.closed) await this.parts.context().labs.destroy(lab.id, refusal('closed.classroomEnded', { code, reason: { words: reason.words } }));
  }

  /** Ends the classrooms of this server that were idle too long, whose instructor did not come back, or whose record expired. */
  async sweep(): Promise<void> {
    for (const code of [...this.owned.keys()]) {
      try {
        const record = await this.parts.store().get(code);
        const awaySince = record?.instructorAwaySince ?? null;
        if (!record) await this.end(code, refusal('ended.expired'));
        else if (awaySince !== null && Date.now() - awaySince > this.instructorAwayMs) await this.end(code, instructorGoneWords(this.instructorAwayMs));
        else if (Date.now() - record.lastActiveAt > this.idleMs) await this.end(code, idleWords(this.idleMs));
      } catch (error) {
        console.error('[classroom] sweep failed:', error);
      }
    }
  }

  /** Ends every classroom of this server (shutdown). */
  endAll(reason: Said): Promise<void> {
    return Promise.all([...this.owned.keys()].map((code) => this.end(code, reason))).then(() => undefined);
  }
}

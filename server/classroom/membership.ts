/**
 * A socket's membership of a classroom: entering (the rooms, then the lab's
 * view from its owner — exactly as a tab enters its own lab, through
 * realtime/lab-view), and leaving (its rooms left; a learner whose last tab,
 * on any server, left is shown as away in the instructor's roster). The
 * instructor's presence likewise: when their last tab leaves, everyone in
 * the class is told the class ends `instructorAwayMs` later unless an
 * instructor comes back (the owner's sweep ends it then), and told again
 * when one does.
 */
import { classroomPath, type ClassroomJoined, type ClassroomRole, type InstructorAway } from '@/lib/classroom';
import { enterView, labRoom, type LabView } from '../realtime/lab-view';
import type { ClassroomRecord } from './classroom-store';
import { classRoom, instructorsRoom, learnerRoom, type HubParts, type HubSocket } from './hub-parts';
import type { OwnerForwarding } from './forwarding';

export class ClassroomMembers {
  constructor(
    private readonly parts: HubParts,
    private readonly owner: OwnerForwarding,
    private readonly maxLearners: number,
    private readonly instructorAwayMs: number,
  ) {}

  /** What a record says of the instructor's absence, as a member is told it now. */
  awayOf(record: ClassroomRecord, now = Date.now()): InstructorAway | null {
    const since = record.instructorAwaySince ?? null; // (a record written by an older server has no such field)
    return since === null ? null : { endsInMs: Math.max(0, since + this.instructorAwayMs - now) };
  }

  /** Puts the socket in the classroom's rooms and sends it the lab's view from its owner, as an own lab's tab is sent its lab. */
  async enter(socket: HubSocket, record: ClassroomRecord, role: ClassroomRole, learnerId: string | null): Promise<ClassroomJoined> {
    if (socket.data.classroom && socket.data.classroom.code !== record.code) await this.leave(socket);
    socket.data.classroom = { code: record.code, role, learnerId, labId: record.labId };
    const rooms = [classRoom(record.code), labRoom(record.labId)];
    if (role === 'instructor') rooms.push(instructorsRoom(record.code));
    if (learnerId) rooms.push(learnerRoom(record.code, learnerId));
    const snapshot = await enterView(socket, rooms, async () => (await this.owner.toOwner(record.code, { type: 'view', code: record.code })) as LabView).catch(
      async (error: unknown) => {
        await this.leave(socket);
        throw error;
      },
    );
    const store = this.parts.store();
    if (role === 'instructor') await this.instructorPresent(record.code);
    const fresh = (await store.get(record.code)) ?? record;
    return {
      code: record.code,
      name: record.name,
      link: classroomPath(record.code),
      role,
      learnerId,
      labId: record.labId,
      lab: snapshot,
      follow: fresh.follow,
      demo: fresh.demo,
      roster: role === 'instructor' ? await store.roster(record.code) : null,
      maxLearners: this.maxLearners,
      instructorAway: this.awayOf(fresh),
    };
  }

  async leave(socket: HubSocket): Promise<void> {
    const member = socket.data.classroom;
    if (!member) return;
    socket.data.classroom = undefined;
    const rooms = [classRoom(member.code), instructorsRoom(member.code)];
    if (member.learnerId) rooms.push(learnerRoom(member.code, member.learnerId));
    // The lab's room is shared with a learner's own lab only if it is the same lab, which lab:join refuses.
    if (socket.data.labId !== member.labId) rooms.push(labRoom(member.labId));
    await Promise.all(rooms.map((room) => socket.leave(room)));
    // At shutdown the sockets drop after the coordination connection is being closed: nothing to tell anyone.
    if (this.parts.closing()) return;
    if (member.role === 'instructor') return this.instructorLeft(member.code);
    if (!member.learnerId) return;
    const { code, learnerId } = member;
    const store = this.parts.store();
    // Another tab of the same learner (here or on another server) keeps them in the class.
    if (await this.hasOtherTab(code, learnerId)) return;
    let entry = await store.updateLearner(code, learnerId, (e) => ({ ...e, connected: false, updatedAt: Date.now() }));
    // A tab that joined while this one was being marked away must not be shown as away: look again.
    if (entry && (await this.hasOtherTab(code, learnerId)))
      entry = await store.updateLearner(code, learnerId, (e) => ({ ...e, connected: true, updatedAt: Date.now() }));
    if (entry) this.parts.io().to(instructorsRoom(code)).emit('classroom:roster', { code, learner: entry });
  }

  /** Whether any socket of this learner is still in the class, on any server. Unknown (a server not answering) counts as no. */
  private hasOtherTab(code: string, learnerId: string): Promise<boolean> {
    return this.anyoneIn(learnerRoom(code, learnerId));
  }

  private async anyoneIn(room: string): Promise<boolean> {
    try {
      return (await this.parts.io().in(room).fetchSockets()).length > 0;
    } catch {
      return false;
    }
  }

  /** An instructor's tab entered: if the class was told the instructor left, it is told they are back. */
  private async instructorPresent(code: string): Promise<void> {
    const record = await this.parts.store().get(code);
    if (!record || (record.instructorAwaySince ?? null) === null) return;
    if (await this.parts.store().update(code, { instructorAwaySince: null, lastActiveAt: Date.now() }))
      this.parts.io().to(classRoom(code)).emit('classroom:instructor', { code, away: null });
  }

  /** An instructor's tab left: if it was their last (on any server), the class is told when it ends. */
  private async instructorLeft(code: string): Promise<void> {
    if (await this.anyoneIn(instructorsRoom(code))) return;
    const since = Date.now();
    if (!(await this.parts.store().update(code, { instructorAwaySince: since }))) return;
    // An instructor tab that entered while this one was being marked away must not leave the class told otherwise.
    if (await this.anyoneIn(instructorsRoom(code))) return this.instructorPresent(code);
    this.parts.io().to(classRoom(code)).emit('classroom:instructor', { code, away: { endsInMs: this.instructorAwayMs } });
  }
}

/**
 * A socket's membership of a classroom: entering (the rooms, then the lab's
 * view from its owner — exactly as a tab enters its own lab, through
 * realtime/lab-view), and leaving (its rooms left; a learner whose last tab,
 * on any server, left is shown as away in the instructor's roster).
 */
import { classroomPath, type ClassroomJoined, type ClassroomRole } from '@/lib/classroom';
import { enterView, labRoom, type LabView } from '../realtime/lab-view';
import type { ClassroomRecord } from './classroom-store';
import { classRoom, instructorsRoom, learnerRoom, type HubParts, type HubSocket } from './hub-parts';
import type { OwnerForwarding } from './forwarding';

export class ClassroomMembers {
  constructor(
    private readonly parts: HubParts,
    private readonly owner: OwnerForwarding,
    private readonly maxLearners: number,
  ) {}

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
    if (member.role !== 'learner' || !member.learnerId || this.parts.closing()) return;
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
  private async hasOtherTab(code: string, learnerId: string): Promise<boolean> {
    try {
      return (await this.parts.io().in(learnerRoom(code, learnerId)).fetchSockets()).length > 0;
    } catch {
      return false;
    }
  }
}

/**
 * Classrooms on this server: creating them, joining (instructor or learner),
 * the instructor's actions on the shared lab, "follow me", demos, progress
 * reports and the live roster, idle expiry, and rate limits. The hub holds
 * the handlers and puts the parts together: `owner` (the classrooms whose
 * lab runs here), `forwarding` (a request to a classroom's owner, here or on
 * another server), `membership` (entering and leaving a classroom's rooms).
 *
 * Where things live. A classroom's lab runs on the server that created it
 * (its owner). Its events reach members on every server because they are
 * emitted to rooms and socket.io's Redis adapter carries room broadcasts to
 * all servers. Records and rosters are in the ClassroomStore (the
 * coordination Redis with several servers), so any server can find a
 * classroom by its code. Roles are enforced here, on the server: a
 * learner's socket sending an instructor action gets `forbidden`.
 *
 * Seats. A learner is a browser (its identity cookie, socket.data.browser),
 * never a socket or an IP: a browser's tabs and sockets share one seat, so a
 * script looping `classroom:join` on one socket, or on many sockets of one
 * browser, is one learner, and a class behind one NAT is still many. The
 * instructor may remove a learner: their tabs are told and leave, and their
 * browser may not take a seat in that class again until the instructor
 * allows it back — a removal that a reload undid would not stop the person
 * it was meant for.
 */
import crypto from 'node:crypto';
import type { Server } from 'socket.io';
import { EMPTY_PROGRESS, type ClassroomDemoStarted, type ClassroomJoined, type RosterEntry } from '@/lib/classroom';
import { DEFAULT_TOPOLOGY } from '@/lib/cluster';
import type { CommandInput } from '@/lib/commands';
import { LabOperationError } from '@/lib/result';
import { commandRegistrar } from '../realtime/command-handlers';
import { TokenBucket } from '../realtime/token-bucket';
import { MemoryClassroomStore, RedisClassroomStore, type ClassroomRecord, type ClassroomStore } from './classroom-store';
import { connectCoordination, type Coordination } from './coordination';
import { assertFollowTarget, listDemos, resolveDemo } from './demos';
import { OwnerForwarding } from './forwarding';
import { classRoom, classroomGone, instructorsRoom, learnerRoom, type ClassroomContext, type ClassroomMembership, type HubParts, type HubServer, type HubSocket } from './hub-parts';
import { resolveInstructorToken, type InstructorToken } from './instructor-token';
import { serveInstructorSession } from './instructor-proof';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { labRoom } from '../realtime/lab-view';
import { generateJoinCode } from './join-code';
import { ClassroomMembers } from './membership';
import { ClassroomOwner } from './owner';
import { refusal } from '@/lib/refusal-words';

export type { ClassroomContext, ClassroomMembership, ClassroomServerEvents, ClassroomSocketData, HubSocket, OwnerRequest } from './hub-parts';

export interface ClassroomHubOptions {
  coordinationUrl: string | null;
  instructorToken: string | null;
  /** Where a generated instructor token is written, private to the server's user (instructor-token.ts). */
  instructorTokenFile: string;
  maxLearners: number;
  idleMs: number;
  /** A class whose instructor's last tab left this long ago ends (learners are told when, and when they are back). */
  instructorAwayMs: number;
  actionBurst: number;
  actionRatePerSecond: number;
  log?: (line: string) => void;
}

/** Redis keys outlive the idle period a little, so the owner's sweep (not the expiry) ends a classroom normally. */
const KEY_TTL_MARGIN_MS = 60_000;

export class ClassroomHub {
  /** This server's id among the servers sharing the coordination Redis. */
  readonly serverId = crypto.randomBytes(8).toString('hex');
  private io: HubServer | null = null;
  private ctx: ClassroomContext | null = null;
  private store: ClassroomStore = new MemoryClassroomStore();
  private coordination: Coordination | null = null;
  private token: InstructorToken | null = null;
  private readonly buckets = new WeakMap<HubSocket, TokenBucket>();
  private sweepTimer: NodeJS.Timeout | null = null;
  private starting: Promise<void> | null = null;
  private closing = false;
  private readonly parts: HubParts = {
    io: () => {
      if (!this.io) throw new Error('ClassroomHub is not attached');
      return this.io;
    },
    ioIfAttached: () => this.io,
    store: () => this.store,
    context: () => {
      if (!this.ctx) throw new Error('ClassroomHub is not attached');
      return this.ctx;
    },
    closing: () => this.closing,
  };
  private readonly owner: ClassroomOwner;
  private readonly forwarding: OwnerForwarding;
  private readonly members: ClassroomMembers;

  constructor(private readonly options: ClassroomHubOptions) {
    this.owner = new ClassroomOwner(this.parts, options.idleMs, options.instructorAwayMs);
    this.forwarding = new OwnerForwarding(this.parts, this.owner, () => this.coordination);
    this.members = new ClassroomMembers(this.parts, this.forwarding, options.maxLearners, options.instructorAwayMs);
  }

  /** Wires the hub to the socket.io server; `ready` resolves once coordination (if any) is connected. */
  attach(io: HubServer, ctx: ClassroomContext): void {
    this.io = io;
    this.ctx = ctx;
    this.starting = this.start(io);
  }

  ready(): Promise<void> {
    return this.starting ?? Promise.reject(new Error('ClassroomHub.attach was not called'));
  }

  private async start(io: HubServer): Promise<void> {
    const log = this.options.log ?? ((line: string) => console.log(line));
    if (this.options.coordinationUrl) {
      this.coordination = await connectCoordination(this.options.coordinationUrl, io as unknown as Server);
      this.store = new RedisClassroomStore(this.coordination.redis, this.options.idleMs + KEY_TTL_MARGIN_MS);
      this.forwarding.listen(io);
    }
    this.token = await resolveInstructorToken(this.options.instructorToken, this.coordination?.redis ?? null, log, this.options.instructorTokenFile);
    const every = Math.max(50, Math.min(60_000, Math.floor(Math.min(this.options.idleMs, this.options.instructorAwayMs) / 4)));
    this.sweepTimer = setInterval(() => void this.owner.sweep(), every);
    this.sweepTimer.unref();
  }

  /** True for a lab that belongs to a classroom of this server (nobody may take it over with lab:join). */
  isClassroomLab(labId: string): boolean {
    return this.owner.isClassroomLab(labId);
  }

  get classrooms(): number {
    return this.owner.count;
  }

  /** POST/DELETE INSTRUCTOR_SESSION_PATH: the instructor's ticket traded for this browser's instructor cookie. */
  serveSession(req: IncomingMessage, res: ServerResponse, sameSite: (req: IncomingMessage) => boolean): Promise<void> {
    return serveInstructorSession(req, res, this.token?.proofs ?? null, sameSite);
  }

  /** The classroom handlers of one socket; classroom actions share one allowance per socket, apart from its own lab's. */
  register(socket: HubSocket): void {
    const on = commandRegistrar(socket, () => {
      const bucket = this.bucketOf(socket);
      if (!bucket.take()) throw new LabOperationError('rate-limited', refusal('limit.classroom', { ms: bucket.waitMs }));
    });
    on('classroom:create', (input) => this.create(socket, input));
    on('classroom:join', (input) => this.join(socket, input));
    on('classroom:leave', async () => {
      await this.members.leave(socket);
      return null;
    });
    on('classroom:demos', async () => {
      this.memberOf(socket);
      return listDemos();
    });
    on('classroom:command', async ({ command, input }) => {
      const member = this.instructorOf(socket, 'classroom:command');
      return this.forwarding.toOwner(member.code, { type: 'command', code: member.code, command, input });
    });
    on('classroom:demo', async ({ demo, seed }) => {
      const member = this.instructorOf(socket, 'classroom:demo');
      resolveDemo(demo, seed); // an unknown demo is refused here, before a round trip to the owner
      return (await this.forwarding.toOwner(member.code, { type: 'demo', code: member.code, ref: demo, seed })) as ClassroomDemoStarted;
    });
    on('classroom:follow', async (follow) => {
      const member = this.instructorOf(socket, 'classroom:follow');
      assertFollowTarget(follow.lesson, follow.scenario);
      if (!(await this.store.update(member.code, { follow, lastActiveAt: Date.now() }))) throw classroomGone(member.code);
      this.parts.io().to(classRoom(member.code)).emit('classroom:follow', { ...follow, code: member.code });
      return follow;
    });
    on('classroom:end', async () => {
      const member = this.instructorOf(socket, 'classroom:end');
      await this.forwarding.toOwner(member.code, { type: 'end', code: member.code });
      return null;
    });
    on('classroom:remove', async ({ learnerId }) => this.remove(this.instructorOf(socket, 'classroom:remove'), learnerId));
    on('classroom:readmit', async ({ learnerId }) => {
      const { code } = this.instructorOf(socket, 'classroom:readmit');
      if (!(await this.store.readmitLearner(code, learnerId))) throw new LabOperationError('not-found', refusal('classroom.noLearner'));
      const entry = await this.store.updateLearner(code, learnerId, (e) => ({ ...e, removed: false, updatedAt: Date.now() }));
      if (!entry) throw classroomGone(code);
      this.parts.io().to(instructorsRoom(code)).emit('classroom:roster', { code, learner: entry });
      return entry;
    });
    on('classroom:progress', async (progress) => {
      const member = this.memberOf(socket);
      if (member.role !== 'learner' || !member.learnerId) throw new LabOperationError('forbidden', refusal('classroom.onlyLearners'));
      // A tab on another server than the instructor's left the rooms when removed, but still thinks it is in the class.
      if ((await this.store.getLearner(member.code, member.learnerId))?.removed) {
        await this.members.leave(socket);
        throw new LabOperationError('forbidden', refusal('classroom.removed'));
      }
      const entry = await this.store.updateLearner(member.code, member.learnerId, (e) => ({ ...e, progress, updatedAt: Date.now() }));
      if (!entry) throw classroomGone(member.code);
      await this.store.update(member.code, { lastActiveAt: Date.now() });
      this.parts.io().to(instructorsRoom(member.code)).emit('classroom:roster', { code: member.code, learner: entry });
      return null;
    });
    socket.on('disconnect', () => void this.members.leave(socket).catch((error: unknown) => console.error('[classroom] leave failed:', error)));
  }

  private bucketOf(socket: HubSocket): TokenBucket {
    let bucket = this.buckets.get(socket);
    if (!bucket) {
      bucket = new TokenBucket(this.options.actionBurst, this.options.actionRatePerSecond);
      this.buckets.set(socket, bucket);
    }
    return bucket;
  }

  private memberOf(socket: HubSocket): ClassroomMembership {
    const member = socket.data.classroom;
    if (!member) throw new LabOperationError('forbidden', refusal('classroom.joinFirst'));
    return member;
  }

  private instructorOf(socket: HubSocket, action: string): ClassroomMembership {
    const member = this.memberOf(socket);
    if (member.role !== 'instructor') throw new LabOperationError('forbidden', refusal('classroom.onlyInstructor', { action }));
    return member;
  }

  /** Removes a learner: their seat freed, their browser barred from this class, each of their tabs told and out. */
  private async remove(instructor: ClassroomMembership, learnerId: string): Promise<RosterEntry> {
    const { code, labId } = instructor;
    if (!(await this.store.removeLearner(code, learnerId))) throw new LabOperationError('not-found', refusal('classroom.noLearner'));
    const entry = await this.store.updateLearner(code, learnerId, (e) => ({ ...e, removed: true, connected: false, updatedAt: Date.now() }));
    if (!entry) throw classroomGone(code);
    await this.store.update(code, { lastActiveAt: Date.now() });
    const io = this.parts.io();
    const said = refusal('classroom.removed');
    const room = learnerRoom(code, learnerId);
    // Through the adapter on every server: the notice first, then out of the rooms (a learner's own lab is never the class's).
    io.to(room).emit('classroom:removed', { code, reason: said.message, words: said.words });
    io.in(room).socketsLeave([classRoom(code), labRoom(labId), room]);
    io.to(instructorsRoom(code)).emit('classroom:roster', { code, learner: entry });
    return entry;
  }

  /** The instructor's answer carries a fresh ticket for this browser's instructor cookie (instructor-proof.ts). */
  private withTicket(joined: ClassroomJoined): ClassroomJoined {
    return this.token ? { ...joined, instructorTicket: this.token.proofs.ticket() } : joined;
  }

  /** The token, or (no token given) this socket's instructor cookie. */
  private provesInstructor(socket: HubSocket, token: string | undefined): boolean {
    if (!this.token) return false;
    return token !== undefined ? this.token.matches(token) : this.token.proofs.acceptsCookie(socket.request.headers.cookie);
  }

  private async create(socket: HubSocket, { token, name }: CommandInput<'classroom:create'>): Promise<ClassroomJoined> {
    if (!this.provesInstructor(socket, token)) throw new LabOperationError('forbidden', refusal(token === undefined ? 'classroom.notRemembered' : 'classroom.wrongToken'));
    const { labs, publish } = this.parts.context();
    const lab = await labs.create(DEFAULT_TOPOLOGY, 3);
    let code = generateJoinCode();
    // 75 random bits make a clash practically impossible; checking costs one lookup.
    while (await this.store.get(code)) code = generateJoinCode();
    const now = Date.now();
    const record: ClassroomRecord = { code, name, ownerId: this.serverId, labId: lab.id, createdAt: now, lastActiveAt: now, follow: null, demo: null, instructorAwaySince: null };
    labs.attach(lab.id, `classroom:${code}`); // the class holds its lab: learners on other servers do not attach here
    publish(lab);
    this.owner.adopt(code, lab);
    try {
      await this.store.create(record);
    } catch (error) {
      await this.owner.end(code, refusal('ended.notRecorded'));
      throw error;
    }
    return this.withTicket(await this.members.enter(socket, record, 'instructor', null));
  }

  private async join(socket: HubSocket, { code, name, instructorToken, asInstructor }: CommandInput<'classroom:join'>): Promise<ClassroomJoined> {
    const record = await this.store.get(code);
    if (!record) throw classroomGone(code);
    if (instructorToken !== undefined || asInstructor) {
      if (!this.provesInstructor(socket, instructorToken))
        throw new LabOperationError('forbidden', refusal(instructorToken === undefined ? 'classroom.notRemembered' : 'classroom.wrongToken'));
      await this.store.update(code, { lastActiveAt: Date.now() });
      return this.withTicket(await this.members.enter(socket, record, 'instructor', null));
    }
    const now = Date.now();
    const fresh: RosterEntry = {
      learnerId: crypto.randomBytes(16).toString('base64url'),
      name: name ?? 'Learner',
      connected: true,
      removed: false,
      joinedAt: now,
      updatedAt: now,
      progress: EMPTY_PROGRESS,
    };
    // Without identities (a server built without them) every socket is a browser of its own, as the lab limits count it.
    const browser = socket.data.browser ?? `socket:${socket.id}`;
    const seat = await this.store.takeSeat(code, browser, fresh, this.options.maxLearners);
    if (seat.kind === 'gone') throw classroomGone(code);
    if (seat.kind === 'full') throw new LabOperationError('classroom-full', refusal('classroom.full', { max: this.options.maxLearners }));
    if (seat.kind === 'removed') throw new LabOperationError('forbidden', refusal('classroom.removed'));
    // This browser's learner already (another tab, a reload, a second join on this socket): the same seat, the last name given.
    const entry =
      seat.kind === 'added'
        ? fresh
        : await this.store.updateLearner(code, seat.learnerId, (e) => ({ ...e, name: name ?? e.name, connected: true, removed: false, updatedAt: now }));
    if (!entry) throw classroomGone(code);
    await this.store.update(code, { lastActiveAt: now });
    const joined = await this.members.enter(socket, record, 'learner', entry.learnerId);
    this.parts.io().to(instructorsRoom(code)).emit('classroom:roster', { code, learner: entry });
    return joined;
  }

  /** Ends this server's classrooms and disconnects from coordination (the labs are closed by the LabManager). */
  async close(): Promise<void> {
    this.closing = true;
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    await this.owner.endAll(refusal('ended.shuttingDown'));
  }

  /** After io.close(): the adapter no longer uses the coordination connections. */
  async disconnect(): Promise<void> {
    await this.coordination?.close();
  }
}

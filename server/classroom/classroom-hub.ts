/**
 * Classrooms on this server: creating them, joining (instructor or learner),
 * the instructor's actions on the shared lab, "follow me", demos, progress
 * reports and the live roster, idle expiry, and rate limits.
 *
 * Where things live. A classroom's lab runs on the server that created it
 * (its owner). Its events reach members on every server because they are
 * emitted to rooms and socket.io's Redis adapter carries room broadcasts to
 * all servers. Instructor actions that arrive at another server are forwarded
 * to the owner with `serverSideEmit` (the adapter's request/response) and
 * answered with the owner's Result. Records and rosters are in the
 * ClassroomStore (the coordination Redis with several servers), so any
 * server can find a classroom by its code. Roles are enforced here, on the
 * server: a learner's socket sending an instructor action gets `forbidden`.
 */
import crypto from 'node:crypto';
import type { Server, Socket } from 'socket.io';
import {
  classroomPath,
  EMPTY_PROGRESS,
  type ClassroomDemoStarted,
  type ClassroomJoined,
  type ClassroomLabCommand,
  type ClassroomRole,
  type DemoRef,
  type RosterEntry,
} from '@/lib/classroom';
import { DEFAULT_TOPOLOGY } from '@/lib/cluster';
import type { CommandInput } from '@/lib/commands';
import type { ClientToServerEvents, ServerToClientEvents } from '@/lib/protocol';
import { LabOperationError, ok, toFailure, type Result } from '@/lib/result';
import type { RunInfo } from '@/lib/run';
import { commandRegistrar } from '../realtime/command-handlers';
import { enterView, labRoom, type LabView } from '../realtime/lab-view';
import type { Lab } from '../lab/lab';
import type { LabManager } from '../lab/lab-manager';
import { MemoryClassroomStore, RedisClassroomStore, type ClassroomRecord, type ClassroomStore } from './classroom-store';
import { connectCoordination, type Coordination } from './coordination';
import { assertFollowTarget, listDemos, resolveDemo } from './demos';
import { resolveInstructorToken, type InstructorToken } from './instructor-token';
import { generateJoinCode } from './join-code';
import { TokenBucket } from '../realtime/token-bucket';

/** What a socket knows about its classroom (socket.data.classroom). */
export interface ClassroomMembership {
  code: string;
  role: ClassroomRole;
  learnerId: string | null;
  labId: string;
}

/** A request for the server that owns a classroom's lab. */
export type OwnerRequest =
  | { type: 'view'; code: string }
  | { type: 'command'; code: string; command: ClassroomLabCommand; input: unknown }
  | { type: 'demo'; code: string; ref: DemoRef; seed: number | undefined }
  | { type: 'end'; code: string };

/** Server-to-server events (through the Redis adapter). Servers that do not own `request.code` answer null. */
export interface ClassroomServerEvents {
  'classroom:forward': (request: OwnerRequest, ack: (result: Result<unknown> | null) => void) => void;
}

export interface ClassroomSocketData {
  labId?: string;
  /** The browser's anonymous identity (its signed cookie), set when the socket connects. */
  browser?: string;
  classroom?: ClassroomMembership;
}

type HubServer = Server<ClientToServerEvents, ServerToClientEvents, ClassroomServerEvents, ClassroomSocketData>;
export type HubSocket = Socket<ClientToServerEvents, ServerToClientEvents, ClassroomServerEvents, ClassroomSocketData>;

/** What the realtime layer lends the hub: its labs, their publishing, and its lab commands. */
export interface ClassroomContext {
  labs: LabManager;
  publish(lab: Lab): void;
  runLabCommand(lab: Lab, command: ClassroomLabCommand, input: unknown): Promise<unknown>;
  /** What a member who joins now is sent of the lab (on the lab's owner). */
  view(lab: Lab): LabView;
}

export interface ClassroomHubOptions {
  coordinationUrl: string | null;
  instructorToken: string | null;
  maxLearners: number;
  idleMs: number;
  actionBurst: number;
  actionRatePerSecond: number;
  log?: (line: string) => void;
}

const classRoom = (code: string) => `classroom:${code}`;
const instructorsRoom = (code: string) => `classroom:${code}:instructors`;
/** Every tab of one learner, on any server: the learner is away only when this room is empty. */
const learnerRoom = (code: string, learnerId: string) => `classroom:${code}:learner:${learnerId}`;
const idleWords = (ms: number) => (ms >= 120_000 ? `${Math.round(ms / 60_000)} minutes` : `${Math.round(ms / 1000)} s`);
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
  /** Classrooms whose lab runs on this server. */
  private readonly owned = new Map<string, Lab>();
  private readonly buckets = new WeakMap<HubSocket, TokenBucket>();
  private sweepTimer: NodeJS.Timeout | null = null;
  private starting: Promise<void> | null = null;
  private closing = false;

  constructor(private readonly options: ClassroomHubOptions) {}

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
      io.on('classroom:forward', (request, ack) => {
        // Every server hears every forward; only the owner answers with a Result.
        if (!this.owned.has(request.code)) return ack(null);
        void this.handleOwned(request).then(ack);
      });
    }
    this.token = await resolveInstructorToken(this.options.instructorToken, this.coordination?.redis ?? null, log);
    const every = Math.max(50, Math.min(60_000, Math.floor(this.options.idleMs / 4)));
    this.sweepTimer = setInterval(() => void this.sweep(), every);
    this.sweepTimer.unref();
  }

  /** True for a lab that belongs to a classroom of this server (nobody may take it over with lab:join). */
  isClassroomLab(labId: string): boolean {
    for (const lab of this.owned.values()) if (lab.id === labId) return true;
    return false;
  }

  get classrooms(): number {
    return this.owned.size;
  }

  /** The classroom handlers of one socket; classroom actions share one allowance per socket, apart from its own lab's. */
  register(socket: HubSocket): void {
    const on = commandRegistrar(socket, () => {
      const bucket = this.bucketOf(socket);
      if (!bucket.take()) throw new LabOperationError('rate-limited', `Too many actions from this tab: wait ${bucket.waitMs} ms and try again`);
    });
    on('classroom:create', (input) => this.create(socket, input));
    on('classroom:join', (input) => this.join(socket, input));
    on('classroom:leave', async () => {
      await this.leave(socket);
      return null;
    });
    on('classroom:demos', async () => {
      this.memberOf(socket);
      return listDemos();
    });
    on('classroom:command', async ({ command, input }) => {
      const member = this.instructorOf(socket, 'classroom:command');
      return this.toOwner(member.code, { type: 'command', code: member.code, command, input });
    });
    on('classroom:demo', async ({ demo, seed }) => {
      const member = this.instructorOf(socket, 'classroom:demo');
      resolveDemo(demo, seed); // an unknown demo is refused here, before a round trip to the owner
      return (await this.toOwner(member.code, { type: 'demo', code: member.code, ref: demo, seed })) as ClassroomDemoStarted;
    });
    on('classroom:follow', async (follow) => {
      const member = this.instructorOf(socket, 'classroom:follow');
      assertFollowTarget(follow.lesson, follow.scenario);
      if (!(await this.store.update(member.code, { follow, lastActiveAt: Date.now() }))) throw this.gone(member.code);
      this.hubIo.to(classRoom(member.code)).emit('classroom:follow', { ...follow, code: member.code });
      return follow;
    });
    on('classroom:end', async () => {
      const member = this.instructorOf(socket, 'classroom:end');
      await this.toOwner(member.code, { type: 'end', code: member.code });
      return null;
    });
    on('classroom:progress', async (progress) => {
      const member = this.memberOf(socket);
      if (member.role !== 'learner' || !member.learnerId) throw new LabOperationError('forbidden', 'Only learners report progress');
      const entry = await this.store.updateLearner(member.code, member.learnerId, (e) => ({ ...e, progress, updatedAt: Date.now() }));
      if (!entry) throw this.gone(member.code);
      await this.store.update(member.code, { lastActiveAt: Date.now() });
      this.hubIo.to(instructorsRoom(member.code)).emit('classroom:roster', { code: member.code, learner: entry });
      return null;
    });
    socket.on('disconnect', () => void this.leave(socket).catch((error: unknown) => console.error('[classroom] leave failed:', error)));
  }

  private get hubIo(): HubServer {
    if (!this.io) throw new Error('ClassroomHub is not attached');
    return this.io;
  }

  private get context(): ClassroomContext {
    if (!this.ctx) throw new Error('ClassroomHub is not attached');
    return this.ctx;
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
    if (!member) throw new LabOperationError('forbidden', 'Join a classroom first (classroom:join)');
    return member;
  }

  private instructorOf(socket: HubSocket, action: string): ClassroomMembership {
    const member = this.memberOf(socket);
    if (member.role !== 'instructor') throw new LabOperationError('forbidden', `Only the instructor may use ${action}; learners watch the classroom's lab`);
    return member;
  }

  private gone(code: string): LabOperationError {
    return new LabOperationError('not-found', `There is no classroom ${code} (it may have ended)`);
  }

  private async create(socket: HubSocket, { token, name }: CommandInput<'classroom:create'>): Promise<ClassroomJoined> {
    if (!this.token?.matches(token)) throw new LabOperationError('forbidden', 'That is not the instructor token');
    const { labs, publish } = this.context;
    const lab = await labs.create(DEFAULT_TOPOLOGY, 3);
    let code = generateJoinCode();
    // 75 random bits make a clash practically impossible; checking costs one lookup.
    while (await this.store.get(code)) code = generateJoinCode();
    const now = Date.now();
    const record: ClassroomRecord = { code, name, ownerId: this.serverId, labId: lab.id, createdAt: now, lastActiveAt: now, follow: null, demo: null };
    labs.attach(lab.id, `classroom:${code}`); // the class holds its lab: learners on other servers do not attach here
    publish(lab);
    this.owned.set(code, lab);
    lab.once('closed', () => void this.endOwned(code, 'its lab was closed'));
    try {
      await this.store.create(record);
    } catch (error) {
      await this.endOwned(code, 'it could not be recorded');
      throw error;
    }
    return this.enter(socket, record, 'instructor', null);
  }

  private async join(socket: HubSocket, { code, name, learnerId: asked, instructorToken }: CommandInput<'classroom:join'>): Promise<ClassroomJoined> {
    const record = await this.store.get(code);
    if (!record) throw this.gone(code);
    if (instructorToken !== undefined) {
      if (!this.token?.matches(instructorToken)) throw new LabOperationError('forbidden', 'That is not the instructor token');
      await this.store.update(code, { lastActiveAt: Date.now() });
      return this.enter(socket, record, 'instructor', null);
    }
    const known = asked ? await this.store.getLearner(code, asked) : null;
    const now = Date.now();
    const entry: RosterEntry = {
      learnerId: known?.learnerId ?? crypto.randomBytes(16).toString('base64url'),
      name: name ?? known?.name ?? 'Learner',
      connected: true,
      joinedAt: known?.joinedAt ?? now,
      updatedAt: now,
      progress: known?.progress ?? EMPTY_PROGRESS,
    };
    const outcome = await this.store.putLearner(code, entry, this.options.maxLearners);
    if (outcome === 'gone') throw this.gone(code);
    if (outcome === 'full')
      throw new LabOperationError('classroom-full', `This classroom is full: it has its ${this.options.maxLearners} learners. Ask the instructor.`);
    await this.store.update(code, { lastActiveAt: now });
    const joined = await this.enter(socket, record, 'learner', entry.learnerId);
    this.hubIo.to(instructorsRoom(code)).emit('classroom:roster', { code, learner: entry });
    return joined;
  }

  /** Puts the socket in the classroom's rooms and sends it the lab's view from its owner, as an own lab's tab is sent its lab (lab-view.ts). */
  private async enter(socket: HubSocket, record: ClassroomRecord, role: ClassroomRole, learnerId: string | null): Promise<ClassroomJoined> {
    if (socket.data.classroom && socket.data.classroom.code !== record.code) await this.leave(socket);
    socket.data.classroom = { code: record.code, role, learnerId, labId: record.labId };
    const rooms = [classRoom(record.code), labRoom(record.labId)];
    if (role === 'instructor') rooms.push(instructorsRoom(record.code));
    if (learnerId) rooms.push(learnerRoom(record.code, learnerId));
    const snapshot = await enterView(socket, rooms, async () => (await this.toOwner(record.code, { type: 'view', code: record.code })) as LabView).catch(
      async (error: unknown) => {
        await this.leave(socket);
        throw error;
      },
    );
    const fresh = (await this.store.get(record.code)) ?? record;
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
      roster: role === 'instructor' ? await this.store.roster(record.code) : null,
      maxLearners: this.options.maxLearners,
    };
  }

  private async leave(socket: HubSocket): Promise<void> {
    const member = socket.data.classroom;
    if (!member) return;
    socket.data.classroom = undefined;
    const rooms = [classRoom(member.code), instructorsRoom(member.code)];
    if (member.learnerId) rooms.push(learnerRoom(member.code, member.learnerId));
    // The lab's room is shared with a learner's own lab only if it is the same lab, which lab:join refuses.
    if (socket.data.labId !== member.labId) rooms.push(labRoom(member.labId));
    await Promise.all(rooms.map((room) => socket.leave(room)));
    // At shutdown the sockets drop after the coordination connection is being closed: nothing to tell anyone.
    if (member.role !== 'learner' || !member.learnerId || !this.io || this.closing) return;
    const { code, learnerId } = member;
    // Another tab of the same learner (here or on another server) keeps them in the class.
    if (await this.hasOtherTab(code, learnerId)) return;
    let entry = await this.store.updateLearner(code, learnerId, (e) => ({ ...e, connected: false, updatedAt: Date.now() }));
    // A tab that joined while this one was being marked away must not be shown as away: look again.
    if (entry && (await this.hasOtherTab(code, learnerId)))
      entry = await this.store.updateLearner(code, learnerId, (e) => ({ ...e, connected: true, updatedAt: Date.now() }));
    if (entry) this.io.to(instructorsRoom(code)).emit('classroom:roster', { code, learner: entry });
  }

  /** Whether any socket of this learner is still in the class, on any server. Unknown (a server not answering) counts as no. */
  private async hasOtherTab(code: string, learnerId: string): Promise<boolean> {
    try {
      return (await this.hubIo.in(learnerRoom(code, learnerId)).fetchSockets()).length > 0;
    } catch {
      return false;
    }
  }

  /** Runs `request` on the owner of `code` (here, or another server through the adapter) and unwraps its Result. */
  private async toOwner(code: string, request: OwnerRequest): Promise<unknown> {
    const result = this.owned.has(code) ? await this.handleOwned(request) : await this.forward(code, request);
    if (!result.ok) throw new LabOperationError(result.error.code, result.error.message, result.error.issues);
    return result.value;
  }

  private async forward(code: string, request: OwnerRequest): Promise<Result<unknown>> {
    const record = await this.store.get(code);
    if (!record) throw this.gone(code);
    if (!this.coordination) throw this.gone(code); // one server, and it does not own it: it ended
    const responses = await new Promise<(Result<unknown> | null)[]>((resolve) => {
      this.hubIo.serverSideEmit('classroom:forward', request, (_error: Error | null, answers: (Result<unknown> | null)[]) => resolve(answers ?? []));
    });
    const answer = responses.find((r) => r !== null);
    if (answer) return answer;
    return toFailure(new LabOperationError('not-found', `The server running classroom ${code} is not answering (it may have stopped)`));
  }

  /** An owner request, on the owner. Never throws: errors become Results, which travel between servers. */
  private async handleOwned(request: OwnerRequest): Promise<Result<unknown>> {
    try {
      const lab = this.owned.get(request.code);
      if (!lab || lab.closed) throw this.gone(request.code);
      switch (request.type) {
        case 'view':
          return ok(this.context.view(lab));
        case 'command': {
          await this.store.update(request.code, { lastActiveAt: Date.now() });
          return ok(await this.context.runLabCommand(lab, request.command, request.input));
        }
        case 'demo': {
          const resolved = resolveDemo(request.ref, request.seed);
          const run = (await this.context.runLabCommand(lab, 'run:start', resolved.run)) as RunInfo;
          const demo: ClassroomDemoStarted = { ref: request.ref, title: resolved.title, seed: resolved.seed, run };
          await this.store.update(request.code, { demo, lastActiveAt: Date.now() });
          this.hubIo.to(classRoom(request.code)).emit('classroom:demo', { ...demo, code: request.code });
          return ok(demo);
        }
        case 'end':
          await this.endOwned(request.code, 'the instructor ended the class');
          return ok(null);
      }
    } catch (error) {
      if (!(error instanceof LabOperationError)) console.error(`[classroom] ${request.type} failed:`, error);
      return toFailure(error);
    }
  }

  /** Ends a classroom this server owns: tells every member (on any server), forgets it, destroys its lab. */
  private async endOwned(code: string, reason: string): Promise<void> {
    const lab = this.owned.get(code);
    if (!lab) return;
    this.owned.delete(code);
    if (this.io) {
      this.io.to(classRoom(code)).emit('classroom:ended', { code, reason });
      this.io.in(classRoom(code)).socketsLeave([classRoom(code), instructorsRoom(code), labRoom(lab.id)]);
    }
    await this.store.delete(code).catch((error: unknown) => console.error('[classroom] could not delete its record:', error));
    if (!lab.closed) await this.context.labs.destroy(lab.id, `classroom ${code} ended: ${reason}`);
  }

  /** Ends the classrooms of this server that were idle too long (or whose record expired). */
  private async sweep(): Promise<void> {
    for (const code of [...this.owned.keys()]) {
      try {
        const record = await this.store.get(code);
        if (!record) await this.endOwned(code, 'its record expired');
        else if (Date.now() - record.lastActiveAt > this.options.idleMs)
          await this.endOwned(code, `nothing happened for ${idleWords(this.options.idleMs)}`);
      } catch (error) {
        console.error('[classroom] sweep failed:', error);
      }
    }
  }

  /** Ends this server's classrooms and disconnects from coordination (the labs are closed by the LabManager). */
  async close(): Promise<void> {
    this.closing = true;
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    await Promise.all([...this.owned.keys()].map((code) => this.endOwned(code, 'its server is shutting down')));
  }

  /** After io.close(): the adapter no longer uses the coordination connections. */
  async disconnect(): Promise<void> {
    await this.coordination?.close();
  }
}

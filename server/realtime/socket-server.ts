/**
 * socket.io handlers: each browser message is validated, routed to the lab
 * the socket has joined, and answered with a Result. A bad message gets an
 * error back and changes nothing; an exception in a handler never reaches
 * socket.io (which would drop the socket) or the process.
 */
import type { Server as HttpServer } from 'node:http';
import { Server, type Socket } from 'socket.io';
import type { LabSnapshot } from '@/lib/cluster';
import { DEFAULT_TOPOLOGY } from '@/lib/cluster';
import type { ClientEventName, ClientToServerEvents, ServerToClientEvents } from '@/lib/protocol';
import { LabOperationError, ok, toFailure, type Result } from '@/lib/result';
import { labJoinSchema, labResetSchema } from '@/lib/schemas';
import { parseInput } from '@/lib/validate';
import type { Lab } from '../lab/lab';
import type { LabManager } from '../lab/lab-manager';
import * as clientFaults from '../nemesis/client-faults';
import * as nemesis from '../nemesis/nemesis';
import { LabRuns } from '../runs/lab-runs';
import type { RunAdmission } from '../runs/run-admission';
import type { SandboxPool } from '../sandbox';
import { emptySchema } from '@/lib/schemas';
import { exerciseCheckSchema, type GradeProgress } from '@/lib/grading';
import { gradeExercise } from '../grading/grader';
import { lessonBySlug } from '../grading/lesson-registry';
import type { ClassroomLabCommand } from '@/lib/classroom';
import type { ClassroomHub, ClassroomServerEvents, ClassroomSocketData } from '../classroom/classroom-hub';
import { labRoom, publishLab, sendCatchUp } from './lab-publisher';
import { originAllowed } from './origin';
import { TokenBucket } from './token-bucket';

type LabSocket = Socket<ClientToServerEvents, ServerToClientEvents, ClassroomServerEvents, ClassroomSocketData>;
export type LabServer = Server<ClientToServerEvents, ServerToClientEvents, ClassroomServerEvents, ClassroomSocketData>;

/** Commands that act on the socket's lab: each takes the raw payload and validates it itself. */
const labCommands = {
  'node:kill': nemesis.killNode,
  'node:restart': nemesis.restartNode,
  'node:pause': nemesis.pauseNode,
  'node:resume': nemesis.resumeNode,
  'node:clock-jump': nemesis.jumpClock,
  'link:cut': nemesis.cutLink,
  'link:heal': nemesis.healLink,
  'link:delay': nemesis.delayLink,
  'replication:hold': nemesis.holdReplication,
  'replication:release': nemesis.releaseReplication,
  'replication:delay': nemesis.delayReplication,
  'cluster:failover': nemesis.failover,
} satisfies Partial<Record<ClientEventName, (lab: Lab, input: unknown) => Promise<unknown>>>;


type Notify = (progress: GradeProgress) => void;

/** Commands on the lab's running program. */
const runCommands = {
  'run:start': (runs: LabRuns, input: unknown) => runs.start(input),
  'run:stop': (runs: LabRuns, input: unknown) => {
    parseInput(emptySchema, input, 'run:stop');
    return runs.stop();
  },
  'client:pause': (runs: LabRuns, input: unknown, lab: Lab) => clientFaults.pauseClient(lab, runs.current, input),
  'client:resume': (runs: LabRuns, input: unknown, lab: Lab) => clientFaults.resumeClient(lab, runs.current, input),
  'client:crash': (runs: LabRuns, input: unknown, lab: Lab) => clientFaults.crashClient(lab, runs.current, input),
  'client:skew': (runs: LabRuns, input: unknown, lab: Lab) => clientFaults.skewClient(lab, runs.current, input),
  'exercise:check': (runs: LabRuns, input: unknown, _lab: Lab, notify: Notify) => {
    const { slug, code } = parseInput(exerciseCheckSchema, input, 'exercise:check');
    return gradeExercise(lessonBySlug(slug), code, runs, notify);
  },
} satisfies Partial<Record<ClientEventName, (runs: LabRuns, input: unknown, lab: Lab, notify: Notify) => Promise<unknown>>>;

export function attachRealtime(
  httpServer: HttpServer,
  labs: LabManager,
  options: {
    allowedOrigins: string[];
    sandbox: SandboxPool | null;
    /** The server's run budget (memory, concurrency, a fair queue); runs start at once without it. */
    admission?: RunAdmission | null;
    classrooms?: ClassroomHub;
    /** Commands on a socket's own lab (joins, faults, runs): a burst, then this many a second. Unlimited if absent. */
    labActionLimit?: { burst: number; perSecond: number };
  },
): LabServer {
  const io: LabServer = new Server(httpServer, {
    allowRequest: (req, callback) => callback(null, originAllowed(req, options.allowedOrigins)),
    // Learner code and snapshots are small; a cap stops a hostile client from sending megabytes.
    maxHttpBufferSize: 1_000_000,
  });
  const unpublish = new Map<string, () => void>();
  const runsByLab = new WeakMap<Lab, LabRuns>();

  /** A lab's runs, created with the first run; their events go to the lab's room. */
  const runsOf = (lab: Lab): LabRuns => {
    let runs = runsByLab.get(lab);
    if (runs) return runs;
    if (!options.sandbox) throw new LabOperationError('forbidden', 'This server runs no learner code (its sandbox is off)');
    runs = new LabRuns(lab, options.sandbox, options.admission ?? null);
    const room = io.to(labRoom(lab.id));
    runs.on('waiting', ({ ahead }) => room.emit('run:waiting', { labId: lab.id, ahead }));
    runs.on('started', (info) => room.emit('run:started', { ...info, labId: lab.id }));
    runs.on('verdict', (v) => room.emit('run:verdict', { ...v, labId: lab.id }));
    runs.on('diagnostic', (d) => room.emit('run:diagnostic', { ...d, labId: lab.id }));
    runs.on('ended', (e) => room.emit('run:ended', { ...e, labId: lab.id }));
    runsByLab.set(lab, runs);
    return runs;
  };

  const publish = (lab: Lab) => {
    if (unpublish.has(lab.id)) return;
    unpublish.set(lab.id, publishLab(io, lab));
    lab.once('closed', () => {
      unpublish.get(lab.id)?.();
      unpublish.delete(lab.id);
      io.in(labRoom(lab.id)).socketsLeave(labRoom(lab.id));
    });
  };

  /** A lab command (a fault, or a run) on `lab`, as a classroom's instructor sends it to the classroom's lab. */
  const runLabCommand = async (lab: Lab, command: ClassroomLabCommand, input: unknown): Promise<unknown> => {
    const fault = (labCommands as Partial<Record<ClassroomLabCommand, (lab: Lab, input: unknown) => Promise<unknown>>>)[command];
    if (fault) return fault(lab, input);
    const run = (runCommands as Partial<Record<ClassroomLabCommand, (runs: LabRuns, input: unknown, lab: Lab, notify: Notify) => Promise<unknown>>>)[command];
    if (!run) throw new LabOperationError('invalid-input', `"${command}" is not a lab command`);
    return run(runsOf(lab), input, lab, () => undefined);
  };
  const classrooms = options.classrooms;
  classrooms?.attach(io, { labs, publish, runLabCommand, runCatchUp: (lab) => runsByLab.get(lab)?.catchUp() ?? null });

  io.on('connection', (raw) => {
    const socket = raw as LabSocket;
    /** Registers a handler that always answers through the ack, or through lab:error when there is none. */
    const on = (event: ClientEventName, handler: (input: unknown) => Promise<Result<unknown>>) => {
      (socket as unknown as { on(e: string, fn: (...args: unknown[]) => void): void }).on(event, (...args: unknown[]) => {
        const ack = args.at(-1);
        const input = args.length > 1 ? args[0] : undefined;
        if (typeof ack !== 'function') {
          socket.emit('lab:error', { code: 'invalid-input', message: `"${event}" needs an acknowledgement callback` });
          return;
        }
        handler(input)
          .catch((error: unknown) => {
            if (!(error instanceof LabOperationError)) console.error(`[realtime] ${event} failed:`, error);
            return toFailure(error);
          })
          .then((result) => (ack as (r: Result<unknown>) => void)(result));
      });
    };

    // Own-lab commands share one bucket per socket; classroom actions have their own (in the hub).
    const limit = options.labActionLimit;
    const bucket = limit ? new TokenBucket(limit.burst, limit.perSecond) : null;
    const onLimited = (event: ClientEventName, handler: (input: unknown) => Promise<Result<unknown>>) =>
      on(event, async (input) => {
        if (bucket && !bucket.take())
          throw new LabOperationError('rate-limited', `Too many lab commands from this tab: wait ${bucket.waitMs} ms and try again`);
        return handler(input);
      });

    const leaveCurrent = () => {
      const current = socket.data.labId;
      if (!current) return;
      // The same room may carry the classroom's lab this socket watches; only own labs are left here.
      if (socket.data.classroom?.labId !== current) void socket.leave(labRoom(current));
      labs.detach(current, socket.id);
      socket.data.labId = undefined;
    };

    const join = async (lab: Lab): Promise<LabSnapshot> => {
      if (socket.data.labId !== lab.id) leaveCurrent();
      socket.data.labId = lab.id;
      labs.attach(lab.id, socket.id);
      publish(lab);
      await socket.join(labRoom(lab.id));
      const snapshot = lab.snapshot();
      // The snapshot travels in the ack and as an event (for listeners that only watch events);
      // the history follows as ordinary batches, which a viewer de-duplicates by seq.
      socket.emit('lab:snapshot', snapshot);
      setImmediate(() => sendCatchUp(socket, lab.id, lab.history.since(0), runsByLab.get(lab)?.catchUp() ?? null));
      return snapshot;
    };

    onLimited('lab:join', async (input) => {
      const { labId, topology, clients } = parseInput(labJoinSchema, input, 'lab:join');
      // A classroom's lab is driven only through classroom:* (where roles are checked), never joined as one's own.
      if (labId && classrooms?.isClassroomLab(labId))
        throw new LabOperationError('forbidden', "That lab belongs to a classroom: join the classroom (classroom:join) to watch it");
      const existing = labId ? labs.get(labId) : undefined;
      if (existing && !existing.closed) return ok(await join(existing));
      const lab = await labs.create(topology ?? DEFAULT_TOPOLOGY, clients ?? 3);
      return ok(await join(lab));
    });

    onLimited('lab:reset', async (input) => {
      const { topology, clients } = parseInput(labResetSchema, input, 'lab:reset');
      const current = socket.data.labId ? labs.get(socket.data.labId) : undefined;
      const next = await labs.create(topology ?? current?.topology ?? DEFAULT_TOPOLOGY, clients ?? current?.clients ?? 3);
      const snapshot = await join(next);
      if (current) void labs.destroy(current.id, 'replaced by a reset');
      return ok(snapshot);
    });

    for (const [event, command] of Object.entries(labCommands) as [ClientEventName, (lab: Lab, input: unknown) => Promise<unknown>][]) {
      onLimited(event, async (input) => {
        const lab = socket.data.labId ? labs.get(socket.data.labId) : undefined;
        if (!lab || lab.closed) throw new LabOperationError('no-lab', 'Join a lab first (lab:join); this socket has none');
        return ok(await command(lab, input));
      });
    }

    for (const [event, command] of Object.entries(runCommands) as [ClientEventName, (runs: LabRuns, input: unknown, lab: Lab, notify: Notify) => Promise<unknown>][]) {
      onLimited(event, async (input) => {
        const lab = socket.data.labId ? labs.get(socket.data.labId) : undefined;
        if (!lab || lab.closed) throw new LabOperationError('no-lab', 'Join a lab first (lab:join); this socket has none');
        const notify: Notify = (progress) => io.to(labRoom(lab.id)).emit('exercise:progress', { ...progress, labId: lab.id });
        return ok(await command(runsOf(lab), input, lab, notify));
      });
    }

    classrooms?.register(socket, on);

    socket.on('disconnect', leaveCurrent);
  });

  return io;
}

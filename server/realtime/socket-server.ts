/**
 * socket.io handlers: each browser message is validated, routed to the lab
 * the socket has joined, and answered with a Result. A bad message gets an
 * error back and changes nothing; an exception in a handler never reaches
 * socket.io (which would drop the socket) or the process.
 */
import type { Server as HttpServer } from 'node:http';
import { Server, type Socket } from 'socket.io';
import type { LabSnapshot, Topology } from '@/lib/cluster';
import { DEFAULT_CLIENTS, DEFAULT_TOPOLOGY, sameTopology } from '@/lib/cluster';
import type { ClientToServerEvents, HandshakeRefusal, ServerToClientEvents } from '@/lib/protocol';
import { LabOperationError } from '@/lib/result';
import type { Lab } from '../lab/lab';
import type { LabManager } from '../lab/lab-manager';
import { LabRuns } from '../runs/lab-runs';
import { borrowSpareLabs } from '../grading/spare-labs';
import type { RunAdmission } from '../runs/run-admission';
import type { SandboxPool } from '../sandbox';
import type { ClassroomHub, ClassroomServerEvents, ClassroomSocketData } from '../classroom/classroom-hub';
import { commandRegistrar } from './command-handlers';
import { LAB_COMMAND_NAMES, runClassroomLabCommand, runLabCommand, type LabCommandContext } from './lab-commands';
import { publishLab } from './lab-publisher';
import { enterView, labRoom, viewOf } from './lab-view';
import { originAllowed } from './origin';
import { TokenBucket } from './token-bucket';
import type { BrowserIdentities } from './browser-identity';
import { refuse } from '../ops/refusals';
import { refusal } from '@/lib/refusal-words';
import type { Said } from '@/lib/words';

/** Lab commands that play runs one after another for a while (a lab does not move tabs during them). */
const LONG_COMMANDS: ReadonlySet<string> = new Set(['exercise:check', 'explore:run', 'experiment:run']);

type LabSocket = Socket<ClientToServerEvents, ServerToClientEvents, ClassroomServerEvents, ClassroomSocketData>;
export type LabServer = Server<ClientToServerEvents, ServerToClientEvents, ClassroomServerEvents, ClassroomSocketData>;

export interface RealtimeOptions {
  allowedOrigins: string[];
  sandbox: SandboxPool | null;
  /** The server's run budget (memory, concurrency, a fair queue); runs start at once without it. */
  admission?: RunAdmission | null;
  classrooms?: ClassroomHub;
  /** Commands on a socket's own lab (joins, faults, runs): a burst, then this many a second. Unlimited if absent. */
  labActionLimit?: { burst: number; perSecond: number };
  /** The same, per lab: one allowance shared by every socket on the lab, so opening more tabs buys nothing. */
  perLabLimit?: { burst: number; perSecond: number };
  /** A socket refused more than `refusals` commands within `windowMs` is disconnected. */
  flood?: { refusals: number; windowMs: number };
  /** Browser identities (signed cookie). Absent: every socket counts as a browser of its own. */
  identities?: BrowserIdentities;
  /** Own labs per browser (classroom labs are not counted). Unlimited if absent. */
  labsPerBrowser?: number;
  /** Sockets open at once per browser. Unlimited if absent. */
  socketsPerBrowser?: number;
  /** Spare labs "Check my solution" may borrow beside the learner's own, when the server has room (0: none). */
  gradingSpareLabs?: number;
}

/** A refused handshake: socket.io carries `data` to the page's connect_error, with the refusal's words. */
const connectError = (error: LabOperationError, extra: Partial<HandshakeRefusal> = {}): Error => {
  const data: HandshakeRefusal = { code: error.code, ...(error.words ? { words: error.words } : {}), ...extra };
  return Object.assign(new Error(error.message), { data });
};

export function attachRealtime(httpServer: HttpServer, labs: LabManager, options: RealtimeOptions): LabServer {
  const identities = options.identities;
  const io: LabServer = new Server(httpServer, {
    allowRequest: (req, callback) => {
      if (!originAllowed(req, options.allowedOrigins)) {
        refuse('origin', { detail: { origin: String(req.headers.origin) } }, 'A page of another site may not open a lab socket');
        return callback('origin not allowed', false);
      }
      callback(null, true);
    },
    // Learner code and snapshots are small; a cap stops a hostile client from sending megabytes.
    maxHttpBufferSize: 1_000_000,
  });

  const socketsByBrowser = new Map<string, Set<string>>();
  io.use((socket, next) => {
    if (!identities) {
      socket.data.browser = `socket:${socket.id}`;
      return next();
    }
    // Only an identity bought with work (browser-identity.ts) opens a socket: no cookie, a forged one or one this
    // server cannot read is told so, and the page gets one and connects again.
    const browser = identities.fromCookieHeader(socket.request.headers.cookie);
    if (!browser)
      return next(
        connectError(refuse('identity-required', { socket: socket.id }, refusal('identity.required')), { identityRequired: true }),
      );
    const open = socketsByBrowser.get(browser) ?? new Set<string>();
    const cap = options.socketsPerBrowser ?? Infinity;
    if (open.size >= cap)
      return next(
        connectError(
          refuse(
            'sockets-per-browser',
            { browser, socket: socket.id, detail: { open: open.size, limit: cap } },
            refusal('limit.sockets', { cap }),
          ),
        ),
      );
    // Counted from here, not from 'connection': another handshake may pass this check before that event.
    open.add(socket.id);
    socketsByBrowser.set(browser, open);
    const release = () => {
      open.delete(socket.id);
      if (open.size === 0 && socketsByBrowser.get(browser) === open) socketsByBrowser.delete(browser);
    };
    socket.conn.once('close', release);
    socket.once('disconnect', release);
    socket.data.browser = browser;
    next();
  });

  /** One bucket per lab, shared by all its sockets; dropped with the lab. */
  const labBuckets = new Map<string, TokenBucket>();
  const labBucket = (lab: Lab): TokenBucket | null => {
    const limit = options.perLabLimit;
    if (!limit) return null;
    let bucket = labBuckets.get(lab.id);
    if (!bucket) {
      bucket = new TokenBucket(limit.burst, limit.perSecond);
      labBuckets.set(lab.id, bucket);
      lab.once('closed', () => labBuckets.delete(lab.id));
    }
    return bucket;
  };
  // A lab with a run going is never idle: it does not yield to a newcomer.
  labs.setBusyProbe((lab) => runsByLab.get(lab)?.current != null);

  /** Checks, searches and experiments going on in a lab: runs one after another, with moments between them. */
  const longWork = new Map<string, number>();
  /** A lab never leaves its tab mid-run or mid-check ("Use the lab here"). */
  const working = (lab: Lab): boolean => runsByLab.get(lab)?.current != null || (longWork.get(lab.id) ?? 0) > 0;

  /** Where a tab's view of its lab starts in the history: set when the tab moved to another page and the lab was rebuilt. */
  const viewFrom = new WeakMap<Lab, number>();
  const unpublish = new Map<string, () => void>();
  const runsByLab = new WeakMap<Lab, LabRuns>();

  /** A lab's runs, created with the first run; their events go to the lab's room. */
  const runsOf = (lab: Lab): LabRuns => {
    let runs = runsByLab.get(lab);
    if (runs) return runs;
    if (!options.sandbox) throw new LabOperationError('forbidden', refusal('run.noSandbox'));
    // Counted against the browser holding the lab: one browser's labs share one browser's share of runs.
    runs = new LabRuns(lab, options.sandbox, options.admission ?? null, labs.ownerOf(lab.id) ?? null);
    const room = io.to(labRoom(lab.id));
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

  /** What a command on `lab` acts on; the grader's progress goes to everyone watching the lab. */
  const commandContext = (lab: Lab): LabCommandContext => ({
    lab,
    runs: () => runsOf(lab),
    existingRuns: () => runsByLab.get(lab) ?? null,
    notify: (progress) => io.to(labRoom(lab.id)).emit('exercise:progress', { ...progress, labId: lab.id }),
    notifyExplore: (progress) => io.to(labRoom(lab.id)).emit('explore:progress', { ...progress, labId: lab.id }),
    notifyExperiment: (progress) => io.to(labRoom(lab.id)).emit('experiment:progress', { ...progress, labId: lab.id }),
    spareLabs: (topology) =>
      borrowSpareLabs(labs, topology, options.gradingSpareLabs ?? 0, options.sandbox, options.admission ?? null, spareHolder(lab)),
  });
  /**
   * Whose share a check's spare labs count against: the browser holding the lab (own labs), so twelve searches from
   * one cookie borrow no more than one browser's spares. A classroom's lab has no holder: its spares are unbounded
   * by browser, as its lab is (only its instructor runs checks there).
   */
  const spareHolder = (lab: Lab) => {
    const browser = labs.ownerOf(lab.id);
    return browser && options.labsPerBrowser !== undefined ? { browser, limit: options.labsPerBrowser + (options.gradingSpareLabs ?? 0) } : null;
  };
  const classrooms = options.classrooms;
  classrooms?.attach(io, {
    labs,
    publish,
    runLabCommand: (lab, command, input) => runClassroomLabCommand(command, commandContext(lab), input),
    view: (lab) => viewOf(lab, runsByLab.get(lab)?.catchUp() ?? null),
  });

  io.on('connection', (raw) => {
    const socket = raw as LabSocket;
    const browser = socket.data.browser;
    const who = (labId?: string) => ({ ...(labId ? { labId } : {}), ...(browser ? { browser } : {}), socket: socket.id });

    /**
     * A refused command also counts towards the flood limit: a tab that keeps
     * sending after being told to slow down is a script, not a person, and
     * answering it still costs the server, so it is told why and disconnected.
     */
    const flood = options.flood;
    const refusedAt: number[] = [];
    const limited = (message: Said, labId?: string): LabOperationError => {
      const error = refuse('rate-limited', who(labId), message);
      if (!flood || socket.disconnected) return error;
      const now = performance.now();
      refusedAt.push(now);
      while (refusedAt.length && refusedAt[0]! <= now - flood.windowMs) refusedAt.shift();
      if (refusedAt.length > flood.refusals) {
        const cut = refuse(
          'socket-flood',
          { ...who(labId), detail: { refused: refusedAt.length, windowMs: flood.windowMs } },
          refusal('limit.flood', { refused: refusedAt.length, seconds: Math.round(flood.windowMs / 1000) }),
        );
        socket.emit('lab:error', cut.toLabError());
        // The error leaves first: engine.io flushes what is queued before it closes the connection.
        socket.disconnect(true);
      }
      return error;
    };

    // Own-lab commands share one bucket per socket, and one per lab across its sockets; classroom actions have their own (in the hub).
    const limit = options.labActionLimit;
    const bucket = limit ? new TokenBucket(limit.burst, limit.perSecond) : null;
    const takeLab = (lab: Lab) => {
      const shared = labBucket(lab);
      if (shared && !shared.take())
        throw limited(refusal('limit.lab', { ms: shared.waitMs }), lab.id);
      // A command from a tab: the lab is in use, so it does not yield to a newcomer for a while.
      labs.touch(lab.id);
    };
    const on = commandRegistrar(socket, () => {
      if (bucket && !bucket.take()) throw limited(refusal('limit.tab', { ms: bucket.waitMs }), socket.data.labId);
    });

    const leaveCurrent = () => {
      const current = socket.data.labId;
      if (!current) return;
      // The same room may carry the classroom's lab this socket watches; only own labs are left here.
      if (socket.data.classroom?.labId !== current) void socket.leave(labRoom(current));
      labs.detach(current, socket.id);
      socket.data.labId = undefined;
    };

    /** Counts this socket as the lab's viewer (which stops its idle timer), not yet in its room. */
    const holdLab = (lab: Lab): void => {
      if (socket.data.labId !== lab.id) leaveCurrent();
      socket.data.labId = lab.id;
      labs.attach(lab.id, socket.id);
    };

    const join = (lab: Lab): Promise<LabSnapshot> => {
      holdLab(lab);
      publish(lab);
      return enterView(socket, [labRoom(lab.id)], () => viewOf(lab, runsByLab.get(lab)?.catchUp() ?? null, viewFrom.get(lab) ?? 0));
    };

    /**
     * The tab's lab made anew in place (same id, so the tab keeps one lab):
     * its run stopped and forgotten, fresh nodes of `topology`, and the view's
     * history starting now, so nothing of the previous page shows.
     */
    const rebuild = async (lab: Lab, topology: Topology, clients: number): Promise<void> => {
      const runs = runsByLab.get(lab);
      if (runs) {
        runsByLab.delete(lab);
        // Retired, not only stopped: a check or a search of the page left would start its next run here.
        await runs.retire();
      }
      lab.clients = clients;
      await lab.restore(topology);
      viewFrom.set(lab, lab.history.length);
    };

    /**
     * A new own lab, within this browser's share. With identities every own lab has its browser recorded (an
     * unlimited share if none is set), since that is what lets its tabs, and only them, join it again.
     */
    const createOwn = (topology: Topology, clients: number): Promise<Lab> =>
      identities && browser
        ? labs.createFor(browser, options.labsPerBrowser ?? Infinity, topology, clients, { socket: socket.id })
        : labs.create(topology, clients);

    /**
     * Whether this socket may join `lab` by its id: a lab belongs to the browser it was given to (any of its tabs,
     * the same cookie), never to whoever knows its id. Without identities every socket is a browser of its own,
     * so a tab could not re-attach after a reconnect: such a server (tests, a bare engine) lets any socket join.
     * A classroom's lab is not joined here at all (classroom:* checks membership and role).
     */
    const mayJoin = (lab: Lab): boolean => !identities || labs.ownerOf(lab.id) === browser;

    on('lab:join', async ({ labId, topology, clients, clean }) => {
      // A classroom's lab is driven only through classroom:* (where roles are checked), never joined as one's own.
      if (labId && classrooms?.isClassroomLab(labId))
        throw new LabOperationError('forbidden', refusal('lab.classroomLab'));
      const found = labId ? labs.get(labId) : undefined;
      const existing = found && mayJoin(found) ? found : undefined;
      // Another browser's lab (a shared link, a leaked or guessed id, or this browser's own from before its identity
      // was bought again): the tab gets a lab of its own, as for an id that does not exist, and learns nothing of it.
      // Not a refusal the page shows (a learner whose cookie changed simply carries on); recorded for the operator.
      if (found && !existing) refuse('lab-not-yours', who(found.id), 'asked to join a lab another browser holds; given a lab of its own');
      if (existing && !existing.closed) {
        takeLab(existing);
        // A page that needs another shape (or a new page) rebuilds the tab's lab instead of starting a second one.
        const wanted = topology ?? (clean ? DEFAULT_TOPOLOGY : existing.topology);
        if (clean || !sameTopology(wanted, existing.topology)) {
          // Held first: a lab its tab just left is on its idle grace, which must not run out mid-rebuild.
          // The room is joined after, so this tab is sent nothing of the rebuild, only the new page's view.
          holdLab(existing);
          await rebuild(existing, wanted, clients ?? existing.clients);
        }
        return join(existing);
      }
      return join(await createOwn(topology ?? DEFAULT_TOPOLOGY, clients ?? DEFAULT_CLIENTS));
    });

    on('lab:reset', async ({ topology, clients }) => {
      const current = socket.data.labId ? labs.get(socket.data.labId) : undefined;
      if (!current || current.closed) return join(await createOwn(topology ?? DEFAULT_TOPOLOGY, clients ?? DEFAULT_CLIENTS));
      takeLab(current);
      await rebuild(current, topology ?? current.topology, clients ?? current.clients);
      return join(current);
    });

    /** The socket's own lab, for a command on it. */
    const ownLab = (): Lab => {
      const lab = socket.data.labId ? labs.get(socket.data.labId) : undefined;
      if (!lab || lab.closed) throw new LabOperationError('no-lab', refusal('lab.noLab'));
      takeLab(lab);
      return lab;
    };
    for (const event of LAB_COMMAND_NAMES)
      on(event, async (input) => {
        const lab = ownLab();
        if (!LONG_COMMANDS.has(event)) return runLabCommand(event, commandContext(lab), input);
        longWork.set(lab.id, (longWork.get(lab.id) ?? 0) + 1);
        try {
          return await runLabCommand(event, commandContext(lab), input);
        } finally {
          const left = (longWork.get(lab.id) ?? 1) - 1;
          if (left > 0) longWork.set(lab.id, left);
          else longWork.delete(lab.id);
        }
      });

    /**
     * "Use the lab here": a tab of a browser at its share of labs takes one of them from its other tabs — the
     * one nothing happened in for longest, never one whose run or check is going — rebuilt for this tab's page.
     * Each tab that had it is told where it went and keeps no lab (it may take one back the same way).
     */
    on('lab:take', async ({ topology, clients, place }) => {
      const others = identities && browser ? labs.ownedBy(browser).filter((lab) => lab.id !== socket.data.labId) : [];
      // Nothing to take (this browser's labs went meanwhile): a lab of its own, as a join would give.
      if (others.length === 0) return join(await createOwn(topology ?? DEFAULT_TOPOLOGY, clients ?? DEFAULT_CLIENTS));
      const free = others.filter((lab) => !working(lab)).sort((a, b) => labs.lastActiveAt(a.id) - labs.lastActiveAt(b.id));
      const lab = free[0];
      if (!lab)
        throw refuse('lab-take-busy', { ...who(), detail: { labs: others.length } }, refusal('lab.takeBusy', { labs: others.length }));
      takeLab(lab);
      for (const other of io.sockets.sockets.values()) {
        if (other.id === socket.id || other.data.labId !== lab.id) continue;
        if (other.data.classroom?.labId !== lab.id) void other.leave(labRoom(lab.id));
        labs.detach(lab.id, other.id);
        other.data.labId = undefined;
        other.emit('lab:moved', { labId: lab.id, to: place && place.length > 0 ? place : null });
      }
      holdLab(lab);
      await rebuild(lab, topology ?? DEFAULT_TOPOLOGY, clients ?? lab.clients);
      return join(lab);
    });

    classrooms?.register(socket);

    socket.on('disconnect', leaveCurrent);
  });

  return io;
}

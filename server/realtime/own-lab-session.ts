/**
 * One socket's own lab: join (or rebuild for another page), reset, the lab
 * commands, and "Use the lab here". A socket holds at most one own lab; its
 * commands are rate-limited per socket and per lab, and a refused command
 * counts towards the socket's flood limit.
 */
import type { LabSnapshot, Topology } from '@/lib/cluster';
import { DEFAULT_CLIENTS, DEFAULT_TOPOLOGY, sameTopology } from '@/lib/cluster';
import { LabOperationError } from '@/lib/result';
import { refusal } from '@/lib/refusal-words';
import type { Lab } from '../lab/lab';
import { refuse, type RefusalContext } from '../ops/refusals';
import { commandRegistrar } from './command-handlers';
import { floodGuard } from './flood-guard';
import { LAB_COMMAND_NAMES, runLabCommand } from './lab-commands';
import { enterView, labRoom } from './lab-view';
import type { RealtimeLabs } from './realtime-labs';
import type { LabServer, LabSocket, RealtimeOptions } from './socket-server';
import { TokenBucket } from './token-bucket';

/** Lab commands that play runs one after another for a while (a lab does not move tabs during them). */
const LONG_COMMANDS: ReadonlySet<string> = new Set(['exercise:check', 'explore:run', 'experiment:run']);

export function registerOwnLab(io: LabServer, socket: LabSocket, realtime: RealtimeLabs, options: RealtimeOptions): void {
  const labs = realtime.labs;
  const identities = options.identities;
  const classrooms = options.classrooms;
  const browser = socket.data.browser;
  const who = (labId?: string): RefusalContext => ({ ...(labId ? { labId } : {}), ...(browser ? { browser } : {}), socket: socket.id });
  const limited = floodGuard(socket, options.flood, who);

  // Own-lab commands share one bucket per socket, and one per lab across its sockets; classroom actions have their own (in the hub).
  const limit = options.labActionLimit;
  const bucket = limit ? new TokenBucket(limit.burst, limit.perSecond) : null;
  const takeLab = (lab: Lab) => {
    const shared = realtime.bucket(lab);
    if (shared && !shared.take()) throw limited(refusal('limit.lab', { ms: shared.waitMs }), lab.id);
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
    realtime.publish(lab);
    return enterView(socket, [labRoom(lab.id)], () => realtime.view(lab));
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
    if (labId && classrooms?.isClassroomLab(labId)) throw new LabOperationError('forbidden', refusal('lab.classroomLab'));
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
        await realtime.rebuild(existing, wanted, clients ?? existing.clients);
      }
      return join(existing);
    }
    return join(await createOwn(topology ?? DEFAULT_TOPOLOGY, clients ?? DEFAULT_CLIENTS));
  });

  on('lab:reset', async ({ topology, clients }) => {
    const current = socket.data.labId ? labs.get(socket.data.labId) : undefined;
    if (!current || current.closed) return join(await createOwn(topology ?? DEFAULT_TOPOLOGY, clients ?? DEFAULT_CLIENTS));
    takeLab(current);
    await realtime.rebuild(current, topology ?? current.topology, clients ?? current.clients);
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
      const run = () => runLabCommand(event, realtime.commandContext(lab), input);
      return LONG_COMMANDS.has(event) ? realtime.longCommand(lab, run) : run();
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
    const free = others.filter((lab) => !realtime.working(lab)).sort((a, b) => labs.lastActiveAt(a.id) - labs.lastActiveAt(b.id));
    const lab = free[0];
    if (!lab) throw refuse('lab-take-busy', { ...who(), detail: { labs: others.length } }, refusal('lab.takeBusy', { labs: others.length }));
    takeLab(lab);
    for (const other of io.sockets.sockets.values()) {
      if (other.id === socket.id || other.data.labId !== lab.id) continue;
      if (other.data.classroom?.labId !== lab.id) void other.leave(labRoom(lab.id));
      labs.detach(lab.id, other.id);
      other.data.labId = undefined;
      other.emit('lab:moved', { labId: lab.id, to: place && place.length > 0 ? place : null });
    }
    holdLab(lab);
    await realtime.rebuild(lab, topology ?? DEFAULT_TOPOLOGY, clients ?? lab.clients);
    return join(lab);
  });

  socket.on('disconnect', leaveCurrent);
}

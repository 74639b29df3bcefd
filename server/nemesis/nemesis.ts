/**
 * The nemesis: the lab's node, link, replication and cluster faults, as
 * operations on a Lab. Each takes its input already parsed (at the edge, with
 * the catalogue's schema: lib/faults/inputs.ts), checks its target exists
 * before anything is recorded, refuses a fault that is already in effect,
 * runs in the lab's serial queue, and writes invoke + ok/fail to the history
 * so a run's record shows exactly when the world changed.
 */
import type { LinkView, NodeView, ReplicationView } from '@/lib/cluster';
import { clientLabel, nodeLabel } from '@/lib/cluster';
import type { NemesisOp, Scalar } from '@/lib/history';
import { LabOperationError } from '@/lib/result';
import type { FaultInput } from '@/lib/faults/inputs';
import type { Lab } from '../lab/lab';
import { linkWords, refusal } from '@/lib/refusal-words';
import { words, type Said } from '@/lib/words';
import { historySaid, ms } from '@/lib/history-said';

interface Target {
  target: string;
  node?: number;
  client?: number;
}

/**
 * Wraps one operation: invoke → run → ok (with what it did, in words) or fail (why).
 * Validation failures happen before the invoke, so refused input leaves no trace but the error.
 */
export async function operate<T>(
  lab: Lab,
  op: NemesisOp,
  where: Target,
  args: Record<string, Scalar>,
  run: () => Promise<{ value: T; detail: Said }>,
): Promise<T> {
  if (lab.closed) throw new LabOperationError('not-found', refusal('lab.closed'));
  // Faults on one node, link or client are ordered per target; replication and failover are lab-wide.
  const scope = where.node !== undefined || where.client !== undefined ? where.target : undefined;
  return lab.serial(async () => {
    lab.history.append({ type: 'nemesis', op, phase: 'invoke', ...where, args });
    try {
      const { value, detail } = await run();
      lab.history.append({ type: 'nemesis', op, phase: 'ok', ...where, args, detail: detail.message, detailWords: detail.words });
      return value;
    } catch (error) {
      const words = error instanceof LabOperationError ? error.words : undefined;
      lab.history.append({ type: 'nemesis', op, phase: 'fail', ...where, args, detail: (error as Error).message, ...(words ? { detailWords: words } : {}) });
      throw error;
    }
  }, scope);
}

const nodeTarget = (node: number): Target => ({ target: nodeLabel(node), node });
const linkTarget = (client: number, node: number): Target => ({ target: `${clientLabel(client)} → ${nodeLabel(node)}`, client, node });

export async function killNode(lab: Lab, { node }: FaultInput<'node-kill'>): Promise<NodeView> {
  lab.node(node);
  return operate(lab, 'node-kill', nodeTarget(node), {}, async () => {
    await lab.node(node).kill();
    return { value: lab.nodeView(node), detail: historySaid('nemesis.nodeKill', { node: { node } }) };
  });
}

export async function restartNode(lab: Lab, { node, delayMs = 0, persistence }: FaultInput<'node-restart'>): Promise<NodeView> {
  lab.node(node);
  const args: Record<string, Scalar> = { delayMs, persistence: persistence ?? null };
  return operate(lab, 'node-restart', nodeTarget(node), args, async () => {
    const target = lab.node(node);
    if (target.state !== 'down') throw new LabOperationError('conflict', refusal('node.restartNotDown', { node: { node }, state: target.state }));
    if (lab.pendingRestarts.has(node)) throw new LabOperationError('conflict', refusal('node.restartPending', { node: { node } }));
    if (persistence) target.persistence = persistence;
    const keeps = { words: words('history.nemesis.keeps', { persistence: target.persistence }) };
    if (target.persistence === 'none') target.wipeData();
    if (delayMs === 0) {
      await target.start();
      return { value: lab.nodeView(node), detail: historySaid('nemesis.nodeRestart', { node: { node }, keeps }) };
    }
    const dueAt = lab.now() + delayMs;
    const timer = setTimeout(() => {
      lab.pendingRestarts.delete(node);
      void operate(lab, 'node-restart', nodeTarget(node), { delayed: true }, async () => {
        await target.start();
        return { value: null, detail: historySaid('nemesis.nodeRestartDelayed', { node: { node }, delayMs: ms(delayMs), keeps }) };
      }).catch(() => undefined /* recorded as fail in the history */);
      lab.emit('nodes', [node]);
    }, delayMs);
    timer.unref();
    lab.pendingRestarts.set(node, { timer, dueAt });
    lab.emit('nodes', [node]);
    return { value: lab.nodeView(node), detail: historySaid('nemesis.nodeRestartScheduled', { node: { node }, delayMs: ms(delayMs), keeps }) };
  });
}

export async function pauseNode(lab: Lab, { node }: FaultInput<'node-pause'>): Promise<NodeView> {
  lab.node(node);
  return operate(lab, 'node-pause', nodeTarget(node), {}, async () => {
    lab.node(node).pause();
    return { value: lab.nodeView(node), detail: historySaid('nemesis.nodePause', { node: { node } }) };
  });
}

export async function resumeNode(lab: Lab, { node }: FaultInput<'node-resume'>): Promise<NodeView> {
  lab.node(node);
  return operate(lab, 'node-resume', nodeTarget(node), {}, async () => {
    lab.node(node).resume();
    lab.monitor(node).sampleSoon();
    return { value: lab.nodeView(node), detail: historySaid('nemesis.nodeResume', { node: { node } }) };
  });
}

/**
 * A SIMULATED clock jump: Redis expires keys by its own wall clock, and we
 * cannot move a process's clock, so we do what a forward jump of `jumpMs`
 * would do to the lab's keys on that node: every TTL loses `jumpMs`, and keys
 * whose TTL was shorter expire now.
 */
const CLOCK_JUMP_SCRIPT = `
local jump = tonumber(ARGV[1])
local shortened, expired = 0, 0
for _, k in ipairs(redis.call('KEYS', '*')) do
  local ttl = redis.call('PTTL', k)
  if ttl > 0 then
    if ttl <= jump then
      redis.call('DEL', k)
      expired = expired + 1
    else
      redis.call('PEXPIRE', k, ttl - jump)
      shortened = shortened + 1
    end
  end
end
return { shortened, expired }
`;

export async function jumpClock(lab: Lab, { node, jumpMs }: FaultInput<'node-clock-jump'>): Promise<NodeView> {
  lab.node(node);
  return operate(lab, 'node-clock-jump', nodeTarget(node), { jumpMs }, async () => {
    const client = lab.node(node).controlClient;
    if (!client) throw new LabOperationError('conflict', refusal('node.clockJumpNotUp', { node: { node }, state: lab.node(node).state }));
    const [shortened, expired] = (await client.eval(CLOCK_JUMP_SCRIPT, 0, jumpMs)) as [number, number];
    lab.clockJumps.set(node, (lab.clockJumps.get(node) ?? 0) + jumpMs);
    await lab.monitor(node).sample();
    lab.emit('nodes', [node]);
    return {
      value: lab.nodeView(node),
      detail: historySaid('nemesis.clockJump', { jumpMs: ms(jumpMs), node: { node }, expired, shortened }),
    };
  });
}

export async function cutLink(lab: Lab, { client, node, mode }: FaultInput<'link-cut'>): Promise<LinkView> {
  lab.node(node);
  return operate(lab, 'link-cut', linkTarget(client, node), { mode }, async () => {
    const link = lab.links.get(client, node);
    // Refused here too (the link itself would), so the refusal names the link in words a page translates.
    if (link.cut) throw new LabOperationError('conflict', refusal('link.alreadyCut', { link: { words: linkWords(client, node) }, mode: link.cut }));
    await link.cutLink(mode);
    lab.emit('links');
    return { value: lab.links.view(client, node), detail: historySaid('nemesis.linkCut', { client: { client }, node: { node }, mode }) };
  });
}

export async function healLink(lab: Lab, { client, node }: FaultInput<'link-heal'>): Promise<LinkView> {
  lab.node(node);
  return operate(lab, 'link-heal', linkTarget(client, node), {}, async () => {
    const link = lab.links.get(client, node);
    if (!link.cut) throw new LabOperationError('conflict', refusal('link.notCut', { link: { words: linkWords(client, node) } }));
    await link.heal();
    lab.emit('links');
    return { value: lab.links.view(client, node), detail: historySaid('nemesis.linkHeal', { client: { client }, node: { node } }) };
  });
}

export async function delayLink(lab: Lab, { client, node, delayMs, jitterMs }: FaultInput<'link-delay'>): Promise<LinkView> {
  lab.node(node);
  return operate(lab, 'link-delay', linkTarget(client, node), { delayMs, jitterMs }, async () => {
    lab.links.get(client, node).setDelay(delayMs, jitterMs);
    lab.emit('links');
    const link = { client: { client }, node: { node }, delayMs: ms(delayMs) };
    const detail = jitterMs ? historySaid('nemesis.linkDelayJitter', { ...link, jitterMs: ms(jitterMs) }) : historySaid('nemesis.linkDelay', link);
    return { value: lab.links.view(client, node), detail };
  });
}

/**
 * What a load balancer's idle timeout, a NAT table flush or a restarted proxy
 * does: every open connection of the client is reset at once, to every node.
 * Commands in flight get no answer (their outcome is unknown); the links stay
 * up, so a client that reconnects carries on.
 */
export async function dropConnections(lab: Lab, { client }: FaultInput<'client-disconnect'>): Promise<{ client: number }> {
  if (client > lab.clients) throw new LabOperationError('not-found', refusal('client.noSuchClient', { client: { client }, n: lab.clients }));
  return operate(lab, 'client-disconnect', { target: clientLabel(client), client }, {}, async () => {
    lab.links.resetWhere((c) => c === client);
    return { value: { client }, detail: historySaid('nemesis.clientDisconnect', { client: { client } }) };
  });
}

function replicationOf(lab: Lab): NonNullable<Lab['replication']> {
  if (!lab.replication)
    throw new LabOperationError(
      'conflict',
      refusal(lab.topology.kind === 'replicated' ? 'replication.ended' : 'replication.none'),
    );
  return lab.replication;
}

const replicationTarget: Target = { target: `${nodeLabel(1)} → ${nodeLabel(2)} replication` };
const replicationLinkWords = words('refusals.link.replication', { master: { node: 1 }, replica: { node: 2 } });

export async function holdReplication(lab: Lab): Promise<ReplicationView> {
  return operate(lab, 'replication-hold', replicationTarget, {}, async () => {
    const link = replicationOf(lab).link;
    if (link.cut) throw new LabOperationError('conflict', refusal('link.alreadyCut', { link: { words: replicationLinkWords }, mode: link.cut }));
    await link.cutLink('blackhole');
    lab.emit('links');
    return { value: lab.replicationView()!, detail: historySaid('nemesis.replicationHold', { master: { node: 1 }, replica: { node: 2 } }) };
  });
}

export async function releaseReplication(lab: Lab): Promise<ReplicationView> {
  return operate(lab, 'replication-release', replicationTarget, {}, async () => {
    const link = replicationOf(lab).link;
    if (!link.cut) throw new LabOperationError('conflict', refusal('link.notCut', { link: { words: replicationLinkWords } }));
    await link.heal();
    lab.emit('links');
    return { value: lab.replicationView()!, detail: historySaid('nemesis.replicationRelease', { replica: { node: 2 } }) };
  });
}

export async function delayReplication(lab: Lab, { delayMs }: FaultInput<'replication-delay'>): Promise<ReplicationView> {
  return operate(lab, 'replication-delay', replicationTarget, { delayMs }, async () => {
    replicationOf(lab).link.setDelay(delayMs);
    lab.emit('links');
    return { value: lab.replicationView()!, detail: historySaid('nemesis.replicationDelay', { delayMs: ms(delayMs) }) };
  });
}

/**
 * Failover as it goes wrong in production: the replica is behind (replication
 * held back), the master dies, the replica is promoted with REPLICAOF NO ONE.
 * Whatever the master had not shipped — a lock, say — is really gone.
 */
export async function failover(lab: Lab): Promise<NodeView[]> {
  return operate(lab, 'failover', { target: `${nodeLabel(1)} → ${nodeLabel(2)}` }, {}, async () => {
    const replication = replicationOf(lab);
    const master = lab.node(replication.master);
    const replica = lab.node(replication.replica);
    if (master.state === 'down') throw new LabOperationError('conflict', refusal('node.alreadyDown', { node: { node: master.id } }));
    if (replica.state !== 'up') throw new LabOperationError('conflict', refusal('node.replicaNotUp', { node: { node: replica.id }, state: replica.state }));
    if (!replication.link.cut) await replication.link.cutLink('blackhole');
    await master.kill();
    // Bytes the link was holding die with it: they never reach the replica.
    await replication.link.close();
    lab.replication = null;
    await replica.controlClient!.call('REPLICAOF', 'NO', 'ONE');
    replica.role = 'master';
    replica.replicaOf = null;
    const promoted = historySaid('node.promoted');
    lab.history.append({ type: 'node', node: replica.id, state: replica.state, role: 'master', persistence: replica.persistence, reason: promoted.message, reasonWords: promoted.words });
    lab.emit('nodes', [master.id, replica.id], true);
    lab.emit('links');
    await lab.monitor(replica.id).sample();
    return {
      value: [lab.nodeView(master.id), lab.nodeView(replica.id)],
      detail: historySaid('nemesis.failover', { master: { node: master.id }, replica: { node: replica.id } }),
    };
  });
}

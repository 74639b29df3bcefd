/**
 * Hand-written histories of Redlock runs for the vote view's tests: the
 * `redlock` module's acquire scripts with its lock events.
 */
import { history, RELEASE_SCRIPT, type HistoryBuilder } from './history-builder';

export const ACQUIRE = 'for i, key in ipairs(KEYS) do\n  if redis.call("exists", key) == 1 then return 0 end\nend\nfor i, key in ipairs(KEYS) do\n  redis.call("set", key, ARGV[1], "PX", ARGV[2])\nend\nreturn #KEYS';
export const REFUSED = 'connect ECONNREFUSED 127.0.0.1:7004';

/** The redlock module's acquire round: one EVAL per node, each answered as given. */
export function redlockRound(h: HistoryBuilder, client: number, token: string, t: number, answers: Record<number, 1 | 0 | 'refused' | 'timeout'>): HistoryBuilder {
  h.at(t).push({ type: 'lock', client, event: 'attempt', resources: ['lock'], token, attempt: 1, ttlMs: 3000 });
  for (const [node, answer] of Object.entries(answers)) {
    const args = [ACQUIRE, '1', 'lock', token, '3000'];
    if (answer === 'refused') h.redis(client, Number(node), 'eval', args, REFUSED, { phase: 'fail' });
    else if (answer === 'timeout') h.redis(client, Number(node), 'eval', args, null, { phase: 'info' });
    else h.redis(client, Number(node), 'eval', args, answer);
  }
  return h;
}

function released(h: HistoryBuilder, client: number, token: string, t: number, nodes: number[]): HistoryBuilder {
  h.at(t);
  for (const node of nodes) h.redis(client, node, 'eval', [RELEASE_SCRIPT, '1', 'lock', token], 1);
  return h.push({ type: 'lock', client, event: 'released', resources: ['lock'], token }, t + 2);
}

/** Lesson 5's "a node restarts empty": Client 1 holds Nodes 1–3, Node 3 restarts without its data, Client 2 collects Nodes 3–5. */
export function restartEmpty(): HistoryBuilder {
  const h = history();
  redlockRound(h, 1, 'A', 0, { 1: 1, 2: 1, 3: 1, 4: 'refused', 5: 'refused' });
  h.at(5).push({ type: 'lock', client: 1, event: 'acquired', resources: ['lock'], token: 'A', attempt: 1, quorum: 3, ttlMs: 3000, validityMs: 2960,
    votes: [{ node: 1, ok: true }, { node: 2, ok: true }, { node: 3, ok: true }, { node: 4, ok: false, error: REFUSED }, { node: 5, ok: false, error: REFUSED }] });
  h.at(10).enter(1, 'send-invoices');
  h.at(200).node(3, 'down');
  h.at(250).node(3, 'up', 'none');
  redlockRound(h, 2, 'B', 400, { 1: 0, 2: 0, 3: 1, 4: 1, 5: 1 });
  h.at(405).push({ type: 'lock', client: 2, event: 'acquired', resources: ['lock'], token: 'B', attempt: 1, quorum: 3, ttlMs: 3000, validityMs: 2960 });
  h.at(410).enter(2, 'send-invoices');
  h.at(1500).exit(1, 'send-invoices');
  released(h, 1, 'A', 1510, [1, 2, 3]);
  return h;
}

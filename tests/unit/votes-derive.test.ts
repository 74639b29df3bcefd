/**
 * Who voted for whom, on hand-written histories: the `redlock` module's
 * acquire scripts with its lock events, and hand-written SET … NX code.
 */
import { describe, expect, it } from 'vitest';
import { deriveVotes, doubleVoteWords, holdersAt, isMultiNodeLock, outcomeWords, twoHoldersWords, votesWords } from '@/lib/votes';
import { history, RELEASE_SCRIPT } from './helpers/history-builder';
import { ACQUIRE, REFUSED, redlockRound, restartEmpty } from './helpers/votes-histories';

describe('who voted for whom', () => {
  it('a node restarted empty votes twice: two majorities share it, and the words say so', () => {
    const a = deriveVotes(restartEmpty().build());
    expect(a.nodes).toEqual([1, 2, 3, 4, 5]);
    expect(a.majority).toBe(3);
    expect(a.attempts.map((x) => [x.client, x.outcome, x.granted])).toEqual([
      [1, 'acquired', [1, 2, 3]],
      [2, 'acquired', [3, 4, 5]],
    ]);
    expect(votesWords(a.attempts[0]!)).toBe('Node 1 OK, Node 2 OK, Node 3 OK, Node 4 error, Node 5 error');
    expect(votesWords(a.attempts[1]!)).toBe('Node 1 nil, Node 2 nil, Node 3 OK, Node 4 OK, Node 5 OK');
    expect(outcomeWords(a.attempts[0]!, a)).toBe('acquired with 3 of 5, a majority (it counted to 3)');

    expect(a.forgettings).toEqual([{ node: 3, t: 250, cause: 'restarted-empty' }]);
    expect(a.doubleVotes).toHaveLength(1);
    expect(a.doubleVotes[0]).toMatchObject({ node: 3, first: { client: 1 }, second: { client: 2 }, forgot: { cause: 'restarted-empty' } });
    expect(doubleVoteWords(a.doubleVotes[0]!)).toBe('Node 3 voted twice: for Client 1 at 1 ms, then for Client 2 at 401 ms — it restarted empty at 250 ms and forgot its first vote.');

    expect(a.twoHolders).toHaveLength(1);
    const pair = a.twoHolders[0]!;
    expect(pair.shared).toEqual([3]);
    expect(pair.from).toBe(405);
    expect(pair.to).toBe(1511); // Client 1's release took its first node back
    expect(twoHoldersWords(pair, a)).toBe(
      'Client 1 held Nodes 1, 2, 3; Client 2 held Nodes 3, 4, 5 — Node 3 voted for both (it restarted empty and forgot its vote for Client 1).',
    );

    // Node 3's row: Client 1's grant ends when it forgot, and goes on as a ghost while Client 1 still counts it.
    const node3 = a.grants.filter((g) => g.node === 3);
    expect(node3.map((g) => [g.client, g.from, g.to, g.endedBy, g.ghostTo])).toEqual([
      [1, 1, 250, 'forgot', 1511],
      [2, 401, null, null, undefined],
    ]);
    expect(a.downs).toEqual([{ node: 3, from: 200, to: 250 }]);
  });

  it('follows the cursor: before Client 2 collects its votes there is one holder and no shared node', () => {
    const events = restartEmpty().build();
    const before = deriveVotes(events.filter((e) => e.t <= 300), { endT: 300 });
    expect(before.holdings.map((h) => [h.client, h.nodes, h.to])).toEqual([[1, [1, 2, 3], null]]);
    expect(before.twoHolders).toEqual([]);
    expect(before.doubleVotes).toEqual([]);
    expect(holdersAt(before, 300).map((h) => h.client)).toEqual([1]);

    const during = deriveVotes(events.filter((e) => e.t <= 1000), { endT: 1000 });
    expect(holdersAt(during, 1000).map((h) => h.client)).toEqual([1, 2]);
    expect(during.twoHolders[0]?.to).toBeNull();

    const after = deriveVotes(events);
    expect(holdersAt(after, 1600).map((h) => h.client)).toEqual([2]);
  });

  it('a quorum of two: two holders on disjoint nodes, one of them not a majority (hand-written SET … NX)', () => {
    const h = history();
    h.at(0);
    for (const node of [1, 2]) h.redis(1, node, 'set', ['lock', 'a1', 'PX', '3000', 'NX'], 'OK');
    for (const node of [3, 4, 5]) h.redis(1, node, 'set', ['lock', 'a1', 'PX', '3000', 'NX'], REFUSED, { phase: 'fail' });
    for (const node of [1, 2]) h.redis(2, node, 'set', ['lock', 'b1', 'PX', '3000', 'NX'], REFUSED, { phase: 'fail' });
    for (const node of [3, 4, 5]) h.redis(2, node, 'set', ['lock', 'b1', 'PX', '3000', 'NX'], 'OK');
    h.at(5).enter(1, 'job');
    h.at(6).enter(2, 'job');
    const a = deriveVotes(h.build());
    expect(a.holdings.map((x) => [x.client, x.nodes, x.majority])).toEqual([
      [1, [1, 2], false],
      [2, [3, 4, 5], true],
    ]);
    expect(a.twoHolders).toHaveLength(1);
    expect(a.twoHolders[0]?.shared).toEqual([]);
    expect(twoHoldersWords(a.twoHolders[0]!, a)).toBe(
      'Client 1 held Nodes 1, 2 (2 of 5, not a majority); Client 2 held Nodes 3, 4, 5 — no node voted for both: Client 1 never had a majority.',
    );
    expect(a.doubleVotes).toEqual([]);
  });

  it('hand-written code: a refused round released and tried again is a failed attempt, then an acquire; its lock lapses at its TTL', () => {
    const h = history();
    h.at(0);
    for (const node of [1, 2, 3]) h.redis(2, node, 'set', ['lock', 'other', 'PX', '100', 'NX'], 'OK');
    h.at(10);
    h.redis(1, 1, 'set', ['lock', 't1', 'PX', '100', 'NX'], null);
    h.redis(1, 2, 'set', ['lock', 't1', 'PX', '100', 'NX'], null);
    h.redis(1, 3, 'set', ['lock', 't1', 'PX', '100', 'NX'], null, { phase: 'info' });
    h.redis(1, 4, 'set', ['lock', 't1', 'PX', '100', 'NX'], 'OK');
    h.redis(1, 5, 'set', ['lock', 't1', 'PX', '100', 'NX'], REFUSED, { phase: 'fail' });
    h.at(20).redis(1, 4, 'eval', [RELEASE_SCRIPT, '1', 'lock', 't1'], 1);
    h.at(150);
    for (const node of [1, 2, 3, 4, 5]) h.redis(1, node, 'set', ['lock', 't2', 'PX', '100', 'NX'], 'OK');
    h.at(152).enter(1, 'job');
    h.at(400).log(1);
    const a = deriveVotes(h.build());
    const mine = a.attempts.filter((x) => x.client === 1);
    expect(mine.map((x) => [x.number, x.outcome, x.decidedT])).toEqual([
      [1, 'failed', 21],
      [2, 'acquired', 152],
    ]);
    expect(mine[0]?.votes.map((v) => v.answer)).toEqual(['nil', 'nil', 'timeout', 'ok', 'error']);
    // Client 2's three votes lapsed at 101; Client 1's second round lapses at 251 (first vote answered at 151).
    const holding = a.holdings.find((x) => x.client === 1);
    expect(holding).toMatchObject({ nodes: [1, 2, 3, 4, 5], from: 152, endedBy: 'expired' });
    expect(holding?.to).toBe(251);
    expect(a.grants.filter((g) => g.client === 2).map((g) => g.endedBy)).toEqual(['expired', 'expired', 'expired']);
    // Client 2 never entered a job: it took votes, it held nothing.
    expect(a.holdings.map((x) => x.client)).toEqual([1]);
    expect(a.doubleVotes).toEqual([]);
  });

  it('the redlock module: an EVALSHA answered NOSCRIPT and its EVAL are one vote; a vote the commands cannot name comes from the lock event', () => {
    const h = history();
    h.at(0).push({ type: 'lock', client: 1, event: 'attempt', resources: ['lock'], token: 'A', attempt: 1, ttlMs: 3000 });
    h.redis(1, 1, 'evalsha', ['abc', '1', 'lock', 'A', '3000'], 'NOSCRIPT No matching script.', { phase: 'fail' });
    h.redis(1, 1, 'eval', [ACQUIRE, '1', 'lock', 'A', '3000'], 1);
    h.redis(1, 2, 'evalsha', ['abc', '1', 'lock', 'A', '3000'], 1);
    h.redis(1, 3, 'evalsha', ['abc', '1', 'lock', 'A', '3000'], 1);
    h.at(5).push({ type: 'lock', client: 1, event: 'acquired', resources: ['lock'], token: 'A', attempt: 1, quorum: 3, validityMs: 2900,
      votes: [{ node: 1, ok: true }, { node: 2, ok: true }, { node: 3, ok: true }, { node: 4, ok: false, error: 'Command timed out' }] });
    const a = deriveVotes(h.build(), { nodes: 5 });
    expect(a.attempts).toHaveLength(1);
    expect(a.attempts[0]?.votes.map((v) => [v.node, v.answer])).toEqual([[1, 'ok'], [2, 'ok'], [3, 'ok'], [4, 'timeout']]);
    expect(a.holdings[0]).toMatchObject({ client: 1, nodes: [1, 2, 3], majority: true, to: null });
  });

  it('a node whose clock jumps forward drops a live vote and grants it again: a double vote, said as a clock jump', () => {
    const h = history();
    redlockRound(h, 1, 'A', 0, { 1: 1, 2: 1, 3: 1, 4: 'refused', 5: 'refused' });
    h.at(5).push({ type: 'lock', client: 1, event: 'acquired', resources: ['lock'], token: 'A', attempt: 1, quorum: 3, validityMs: 2900 });
    h.at(300).push({ type: 'nemesis', op: 'node-clock-jump', phase: 'ok', target: 'Node 3', node: 3, args: { jumpMs: 5000 } });
    redlockRound(h, 2, 'B', 400, { 1: 0, 2: 0, 3: 1, 4: 1, 5: 1 });
    h.at(405).push({ type: 'lock', client: 2, event: 'acquired', resources: ['lock'], token: 'B', attempt: 1, quorum: 3, validityMs: 2900 });
    const a = deriveVotes(h.build());
    expect(a.forgettings).toEqual([{ node: 3, t: 300, cause: 'clock-jump' }]);
    expect(a.twoHolders[0]?.shared).toEqual([3]);
    expect(twoHoldersWords(a.twoHolders[0]!, a)).toBe(
      'Client 1 held Nodes 1, 2, 3; Client 2 held Nodes 3, 4, 5 — Node 3 voted for both (it had its clock jump forward and forgot its vote for Client 1).',
    );
  });

  it('a vote released before the next client asks is no double vote, and one holder after another is not two at once', () => {
    const h = history();
    redlockRound(h, 1, 'A', 0, { 1: 1, 2: 1, 3: 1, 4: 1, 5: 1 });
    h.at(5).push({ type: 'lock', client: 1, event: 'acquired', resources: ['lock'], token: 'A', attempt: 1, quorum: 3, validityMs: 2900 });
    h.at(100);
    for (const node of [1, 2, 3, 4, 5]) h.redis(1, node, 'eval', [RELEASE_SCRIPT, '1', 'lock', 'A'], 1);
    h.push({ type: 'lock', client: 1, event: 'released', resources: ['lock'], token: 'A' }, 102);
    redlockRound(h, 2, 'B', 200, { 1: 1, 2: 1, 3: 1, 4: 1, 5: 1 });
    h.at(205).push({ type: 'lock', client: 2, event: 'acquired', resources: ['lock'], token: 'B', attempt: 1, quorum: 3, validityMs: 2900 });
    const a = deriveVotes(h.build());
    expect(a.holdings.map((x) => [x.client, x.from, x.to, x.endedBy])).toEqual([
      [1, 5, 101, 'released'],
      [2, 205, null, null],
    ]);
    expect(a.grants.filter((g) => g.client === 1).every((g) => g.endedBy === 'released')).toBe(true);
    expect(a.doubleVotes).toEqual([]);
    expect(a.twoHolders).toEqual([]);
  });

  it('tells a multi-node lock from a single-node one', () => {
    const single = history().at(0).redis(1, 1, 'set', ['lock', 'a', 'PX', '100', 'NX'], 'OK').redis(2, 1, 'set', ['lock', 'b', 'PX', '100', 'NX'], null);
    expect(isMultiNodeLock(single.build())).toBe(false);
    // After a failover the client locks on the promoted node with a new token: still one node's lock at a time.
    const failover = single.redis(1, 2, 'set', ['lock', 'a2', 'PX', '100', 'NX'], 'OK');
    expect(isMultiNodeLock(failover.build())).toBe(false);
    const multi = failover.redis(1, 3, 'set', ['lock', 'a2', 'PX', '100', 'NX'], 'OK');
    expect(isMultiNodeLock(multi.build())).toBe(true);
    expect(isMultiNodeLock(restartEmpty().build())).toBe(true);
  });
});

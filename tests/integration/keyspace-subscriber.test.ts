/**
 * The monitor's keyspace subscription on a real lab node (issue 28, item 5): a write wakes the monitor
 * at once; a burst is one wake per tick, counted, never parsed; past its share a second, the node is
 * unsubscribed for the rest of it and subscribed again after; a subscription the node closes is opened
 * again while the node is up.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { KeyspaceSubscriber, type NotificationCounts } from '@/server/cluster/keyspace-subscriber';
import type { Lab } from '@/server/lab/lab';
import { learnerDirect, startLab, waitFor } from './lab-fixture';

const opened: KeyspaceSubscriber[] = [];
afterEach(() => {
  for (const s of opened.splice(0)) s.close();
});

function subscribe(lab: Lab, perSecond: number) {
  const counts: NotificationCounts = { received: 0, wakes: 0, mutes: 0 };
  const wakes: number[] = [];
  const subscriber = new KeyspaceSubscriber({
    port: lab.nodes[0]!.port,
    username: lab.credentials.control.username,
    password: lab.credentials.control.password,
    counts,
    perSecond,
    onWake: () => wakes.push(performance.now()),
    onClosed: () => undefined,
  });
  opened.push(subscriber);
  return { counts, wakes };
}

/** The subscription is in place once a write is seen (PSUBSCRIBE travels behind AUTH). */
async function subscribed(lab: Lab, counts: NotificationCounts): Promise<void> {
  const redis = learnerDirect(lab, 1);
  await waitFor(async () => {
    await redis.set('probe', String(Date.now()));
    return counts.received > 0;
  }, 'the subscription', 5_000, 20);
  redis.disconnect();
}

describe('the keyspace subscription', () => {
  it('turns a write into a wake at once, and a burst of thousands into a few wakes, counted', async () => {
    const lab = await startLab({ nodes: 1 });
    const { counts, wakes } = subscribe(lab, 1_000_000);
    await subscribed(lab, counts);
    const redis = learnerDirect(lab, 1);
    const before = { received: counts.received, wakes: counts.wakes };
    await redis.eval("for i = 1, 5000 do redis.call('SET', 'k:' .. (i % 100), i) end return 1", 0);
    await waitFor(() => counts.received - before.received >= 5_000, 'every notification counted', 5_000);
    // (A probe's late notification may be among them.)
    expect(counts.received - before.received).toBeLessThan(5_010);
    // One script's notifications arrive in a few socket reads: a wake per tick, not per key.
    expect(counts.wakes - before.wakes).toBeGreaterThanOrEqual(1);
    expect(counts.wakes - before.wakes).toBeLessThan(50);
    expect(counts.mutes).toBe(0);
    expect(wakes.length).toBe(counts.wakes);
    redis.disconnect();
  });

  it('past its share within a second, is unsubscribed on the node for a second, then subscribed again', async () => {
    const lab = await startLab({ nodes: 1 });
    const { counts } = subscribe(lab, 100);
    await subscribed(lab, counts);
    const control = lab.nodes[0]!.controlClient!;
    /** Monitor connections the node has with a pattern subscription: the lab's own and this test's. */
    const subscribedOnNode = async () =>
      String(await control.call('CLIENT', 'LIST')).split('\n').filter((l) => l.includes('name=locklab-monitor') && /\bpsub=1\b/.test(l)).length;
    await waitFor(async () => (await subscribedOnNode()) === 2, 'both subscriptions', 5_000, 20);
    const redis = learnerDirect(lab, 1);
    const before = counts.received;
    // 500: past this subscription's share of 100, within the lab's own monitor's.
    await redis.eval("for i = 1, 500 do redis.call('SET', 'k:' .. i, i) end return 1", 0);
    await waitFor(() => counts.mutes === 1, 'the mute', 5_000);
    // What the node had queued before the mute still arrives, counted; then the node sends this one nothing.
    await waitFor(() => counts.received - before >= 500, "the script's notifications", 5_000);
    await waitFor(async () => (await subscribedOnNode()) === 1, 'the node to see it unsubscribed', 2_000, 10);
    await waitFor(async () => (await subscribedOnNode()) === 2, 'subscribed again', 3_000, 20);
    expect(counts.mutes).toBe(1);
    redis.disconnect();
  });

  it('in a lab: a key written wakes the monitor through its subscription, and a subscription the node closes comes back', async () => {
    const lab = await startLab({ nodes: 1 });
    const monitor = lab.monitor(1);
    const redis = learnerDirect(lab, 1);
    await waitFor(async () => {
      await redis.set('lock:a', 'x');
      return monitor.notifications.received > 0;
    }, 'a notification', 5_000, 20);
    // The node ends the monitor's connection (as Redis does to a subscriber past its output limit).
    const control = lab.nodes[0]!.controlClient!;
    await control.call('CLIENT', 'KILL', 'TYPE', 'pubsub');
    const received = monitor.notifications.received;
    await waitFor(async () => {
      await redis.set('lock:a', String(Date.now()));
      return monitor.notifications.received > received;
    }, 'the subscription back', 5_000, 50);
    redis.disconnect();
  });
});

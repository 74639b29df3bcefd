/** The worker's count of open learner connections, and the clamp of a learner's connection timeouts. */
import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '@/server/sandbox';
import { clampConnectOptions } from '@/server/sandbox/worker/connect-options';
import { ConnectionPlaces } from '@/server/sandbox/worker/connection-places';
import { DESCRIPTOR_SLOT, sharedDescriptorRoom } from '@/server/sandbox/worker/descriptor-room';

describe('ConnectionPlaces', () => {
  it("refuses a connection that would take the web server's reserve, counting those opened since the server's last count", () => {
    const shared = new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT * 3);
    const slots = new Int32Array(shared);
    // As the main thread left it: 97 open at its last count, learners may bring it to 100.
    slots[DESCRIPTOR_SLOT.open] = 97;
    slots[DESCRIPTOR_SLOT.ceiling] = 100;
    const places = new ConnectionPlaces({ maxConnectionsPerClient: 16, maxConnectionsPerRun: 128 }, sharedDescriptorRoom(shared));
    expect([places.take(1).ok, places.take(2).ok, places.take(1).ok]).toEqual([true, true, true]);
    const refused = places.take(2);
    if (refused.ok) throw new Error('taken');
    expect(refused.refusal.words).toEqual({ key: 'runNotes.serverReserve', values: { client: { client: 2 } } });
    expect(slots[DESCRIPTOR_SLOT.openedSince]).toBe(3);
    // The next count sees two of them closed: room again.
    slots[DESCRIPTOR_SLOT.open] = 98;
    slots[DESCRIPTOR_SLOT.openedSince] = 0;
    expect(places.take(2).ok).toBe(true);
  });

  it('refuses past the per-client cap for that client only, and a release frees one place once', () => {
    const places = new ConnectionPlaces({ maxConnectionsPerClient: 2, maxConnectionsPerRun: 10 });
    const a = places.take(1);
    const b = places.take(1);
    const c = places.take(1);
    expect([a.ok, b.ok, c.ok]).toEqual([true, true, false]);
    if (c.ok) throw new Error('taken');
    expect(c.refusal.words.key).toBe('runNotes.connectionsPerClient');
    expect(places.take(2).ok).toBe(true);
    if (!a.ok) throw new Error('refused');
    a.release();
    a.release();
    expect(places.held(1)).toBe(1);
    expect(places.heldByRun).toBe(2);
    expect(places.take(1).ok).toBe(true);
    expect(places.take(1).ok).toBe(false);
  });

  it('refuses past the per-run cap whichever client asks', () => {
    const places = new ConnectionPlaces({ maxConnectionsPerClient: 2, maxConnectionsPerRun: 3 });
    expect([places.take(1).ok, places.take(2).ok, places.take(3).ok]).toEqual([true, true, true]);
    const refused = places.take(4);
    if (refused.ok) throw new Error('taken');
    expect(refused.refusal.message).toBe(
      "Client 4 could not open a connection: the run's clients have 3 connections open, the lab's limit per run. Close one (quit()/disconnect()) before opening another.",
    );
  });
});

describe('clampConnectOptions', () => {
  it('holds timeouts above the lab’s maximum to it and leaves the rest as the learner wrote them', () => {
    const { options, clamped } = clampConnectOptions({ connectTimeout: 600_000, commandTimeout: 2_000, db: 0 }, DEFAULT_LIMITS);
    expect(options).toEqual({ connectTimeout: 10_000, commandTimeout: 2_000, db: 0 });
    expect(clamped).toEqual([{ option: 'connectTimeout', asked: 600_000, max: 10_000 }]);
    expect(clampConnectOptions({ commandTimeout: 600_000 }, DEFAULT_LIMITS).options).toEqual({ commandTimeout: 10_000 });
    // Not a usable number: the connection uses the lab's default (within the cap), nothing to say.
    expect(clampConnectOptions({ connectTimeout: Infinity }, DEFAULT_LIMITS).clamped).toEqual([]);
  });
});

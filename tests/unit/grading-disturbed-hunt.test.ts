/**
 * A failure seen in a run the machine disturbed is evidence (server/grading/disturbance.ts): the item is played
 * again alone, and only HUNT_PLAYS undisturbed passes clear it; one replay that happens to pass does not.
 * A play here is what the grader's run came to: whether the machine disturbed it and whether it failed.
 */
import { describe, expect, it } from 'vitest';
import { DISTURBED_PLAYS, HUNT_PLAYS, settleDisturbed } from '@/server/grading/disturbance';

interface Play {
  disturbed: boolean;
  failed: boolean;
}
const quietPass: Play = { disturbed: false, failed: false };
const quietFail: Play = { disturbed: false, failed: true };
const busyFail: Play = { disturbed: true, failed: true };
const busyPass: Play = { disturbed: true, failed: false };

/** Settles `first` with the replays `then` gives, in order; counts the replays asked for. */
async function settle(first: Play, then: Play[]) {
  let asked = 0;
  const settled = await settleDisturbed(
    first,
    (p) => p.disturbed,
    (p) => p.failed,
    async () => then[asked++] ?? quietPass,
  );
  return { ...settled!, replays: asked };
}

describe('an item whose run the machine disturbed', () => {
  it('that failed is not passed by one replay that happens to pass: it is hunted, and a failure in the hunt is the answer', async () => {
    // A watchdog renewing at 0.9 × TTL: it failed on the busy machine, passes a quiet replay, fails the next.
    const found = await settle(busyFail, [quietPass, quietFail]);
    expect(found.settled).toBe('failed');
    expect(found.replays).toBe(2);
    expect(found.last).toBe(quietFail);
  });

  it('that failed passes only after HUNT_PLAYS quiet passes, the disturbed replays between them counting for nothing', async () => {
    expect(HUNT_PLAYS).toBeGreaterThan(1);
    const cleared = await settle(busyFail, [quietPass, busyFail, ...Array<Play>(HUNT_PLAYS - 1).fill(quietPass)]);
    expect(cleared.settled).toBe('passed');
    expect(cleared.replays).toBe(HUNT_PLAYS + 1);
  });

  it('that failed, on a machine that stays busy, is undecided, never passed', async () => {
    const busy = await settle(busyFail, Array<Play>(20).fill(busyPass));
    expect(busy.settled).toBe('undecided');
    expect(busy.replays).toBe(HUNT_PLAYS + DISTURBED_PLAYS - 1);
  });

  it('that passed is settled by one quiet play, pass or fail', async () => {
    expect((await settle(busyPass, [quietPass])).settled).toBe('passed');
    expect((await settle(busyPass, [quietFail])).settled).toBe('failed');
    const busy = await settle(busyPass, Array<Play>(20).fill(busyPass));
    expect(busy.settled).toBe('undecided');
    expect(busy.replays).toBe(DISTURBED_PLAYS - 1);
  });

  it('a stopped replay settles nothing', async () => {
    expect(await settleDisturbed(busyFail, (p) => p.disturbed, (p) => p.failed, async () => null)).toBeNull();
  });
});

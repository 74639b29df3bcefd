import { describe, expect, it } from 'vitest';
import { ephemeralRange, linkPortRange, pickLinkPort } from '@/server/cluster/link-ports';

describe('link ports', () => {
  it('come from below the kernel ephemeral range, so the kernel never hands one out while a link refuses', () => {
    expect(linkPortRange({ low: 32_768, high: 60_999 })).toEqual({ low: 20_000, high: 32_767 });
    expect(linkPortRange({ low: 40_000, high: 60_999 })).toEqual({ low: 20_000, high: 39_999 });
  });

  it('fall back to a fixed range where the ephemeral range leaves no room or cannot be read', () => {
    expect(linkPortRange({ low: 1_024, high: 65_535 })).toEqual({ low: 20_000, high: 32_767 });
    expect(linkPortRange(null)).toEqual({ low: 20_000, high: 32_767 });
    expect(ephemeralRange(() => '32768\t60999\n')).toEqual({ low: 32_768, high: 60_999 });
    expect(ephemeralRange(() => 'garbage')).toBeNull();
    expect(
      ephemeralRange(() => {
        throw new Error('ENOENT');
      }),
    ).toBeNull();
  });

  it('never pick a port another link holds, nor 6379', () => {
    const range = { low: 6_378, high: 6_381 };
    const first = () => 0; // the random start lands on the range's first port
    expect(pickLinkPort(range, new Set(), first)).toBe(6_378);
    expect(pickLinkPort(range, new Set([6_378]), first)).toBe(6_380);
    expect(pickLinkPort(range, new Set([6_378, 6_380]), first)).toBe(6_381);
    expect(() => pickLinkPort(range, new Set([6_378, 6_380, 6_381]), first)).toThrow(/every port from 6378 to 6381 is held/);
  });
});

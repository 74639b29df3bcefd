/**
 * A lock key's row renders what the store computed: the holder's token and
 * the TTL left at the lab clock it is given, as words and as a bar.
 */
import { renderToStaticMarkup } from 'react-dom/server';
import { withIntl } from './helpers/intl';
import { describe, expect, it } from 'vitest';
import { LockKeyRow } from '@/components/cluster/lock-key-row';

const lock = { key: 'lock:invoice:42', value: 'client-1:7f3a', pttl: 8_000, sampledAt: 1_000 };

const barWidth = (html: string) => /inline-size:\s*([\d.]+)%/.exec(html)?.[1];

describe('LockKeyRow', () => {
  it('shows the key, the holder token and the TTL left at the given lab time', () => {
    const html = renderToStaticMarkup(withIntl(<LockKeyRow lock={lock} peakMs={8_000} now={3_000} />));
    expect(html).toContain('lock:invoice:42');
    expect(html).toContain('client-1:7f3a');
    expect(html).toContain('6.0 s left');
    expect(barWidth(html)).toBe('75.0');
  });

  it('measures the bar against the largest TTL seen for this holder', () => {
    const html = renderToStaticMarkup(withIntl(<LockKeyRow lock={lock} peakMs={16_000} now={1_000} />));
    expect(barWidth(html)).toBe('50.0');
  });

  it('says when a key has expired or never expires', () => {
    expect(renderToStaticMarkup(withIntl(<LockKeyRow lock={lock} peakMs={8_000} now={20_000} />))).toContain('expiring');
    const forever = renderToStaticMarkup(withIntl(<LockKeyRow lock={{ ...lock, pttl: -1 }} peakMs={undefined} now={20_000} />));
    expect(forever).toContain('no expiry');
    expect(barWidth(forever)).toBe('100.0');
  });

  it("in the instrument panel's tile names the holding client, or the token when the history does not say who", () => {
    const held = renderToStaticMarkup(withIntl(<LockKeyRow lock={lock} peakMs={8_000} now={3_000} holder={2} />));
    expect(held).toContain('Client 2');
    expect(held).not.toContain('client-1:7f3a</code>');
    const unknown = renderToStaticMarkup(withIntl(<LockKeyRow lock={lock} peakMs={8_000} now={3_000} holder={null} />));
    expect(unknown).toContain('client-1:7f3a');
  });
});

/**
 * The instructor's ticket and cookie (server/classroom/instructor-proof.ts): a ticket buys a cookie for a minute,
 * the cookie is good for a teaching day, neither carries the token, and neither is good for another token, after
 * its time, or as the other kind.
 */
import { describe, expect, it } from 'vitest';
import { INSTRUCTOR_COOKIE, InstructorProofs } from '@/server/classroom/instructor-proof';

const TOKEN = 'the-instructor-token';
const NOW = Date.UTC(2026, 0, 5, 9, 0, 0);
const cookieHeader = (setCookie: string) => setCookie.split(';')[0]!;

describe('InstructorProofs', () => {
  const proofs = new InstructorProofs(TOKEN);

  it('trades a fresh ticket for a cookie that proves the instructor for twelve hours, and no longer', () => {
    const setCookie = proofs.cookieFor(proofs.ticket(NOW), NOW + 30_000);
    expect(setCookie).toMatch(new RegExp(`^${INSTRUCTOR_COOKIE}=session\\.\\d+\\.[\\w-]{16}\\.[\\w-]{43}; Path=/; Max-Age=43200; HttpOnly; SameSite=Strict$`));
    expect(setCookie).not.toContain(TOKEN);
    const header = `locklab_browser=abc.def; ${cookieHeader(setCookie!)}`;
    expect(proofs.acceptsCookie(header, NOW + 11 * 3_600_000)).toBe(true);
    expect(proofs.acceptsCookie(header, NOW + 30_000 + 12 * 3_600_000 + 1_000)).toBe(false);
  });

  it('refuses a stale ticket, another token’s ticket or cookie, a ticket as the cookie, and tampering', () => {
    const ticket = proofs.ticket(NOW);
    expect(proofs.cookieFor(ticket, NOW + 61_000)).toBeNull();
    const other = new InstructorProofs('another-token');
    expect(proofs.cookieFor(other.ticket(NOW), NOW)).toBeNull();
    expect(proofs.acceptsCookie(cookieHeader(other.cookieFor(other.ticket(NOW), NOW)!), NOW)).toBe(false);
    expect(proofs.acceptsCookie(`${INSTRUCTOR_COOKIE}=${ticket}`, NOW)).toBe(false);
    const [kind, expires, nonce, mac] = cookieHeader(proofs.cookieFor(ticket, NOW)!).slice(INSTRUCTOR_COOKIE.length + 1).split('.');
    expect(proofs.acceptsCookie(`${INSTRUCTOR_COOKIE}=${kind}.${expires}.${nonce}.${mac}`, NOW)).toBe(true);
    for (const forged of [`${kind}.${Number(expires) + 1}.${nonce}.${mac}`, `${kind}.${expires}.${'B'.repeat(16)}.${mac}`, `${kind}.${expires}.${nonce}.${mac!.slice(1)}A`, TOKEN, ''])
      expect(proofs.acceptsCookie(`${INSTRUCTOR_COOKIE}=${forged}`, NOW), forged).toBe(false);
    expect(proofs.acceptsCookie(undefined, NOW)).toBe(false);
  });
});

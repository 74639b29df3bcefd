/**
 * The instructor token: from LOCKLAB_INSTRUCTOR_TOKEN, or generated at start
 * and printed once in the log. With several servers and no configured token,
 * the first server to start stores its token in the coordination Redis and
 * the others adopt (and print) it, so any server accepts it. The coordination
 * Redis is private to the servers (docker-compose publishes no port for it).
 */
import crypto from 'node:crypto';
import type { Redis } from 'ioredis';

const TOKEN_KEY = 'locklab:instructor-token';

const sha256 = (value: string): Buffer => crypto.createHash('sha256').update(value, 'utf8').digest();

export interface InstructorToken {
  matches(candidate: string): boolean;
}

/** Constant time: hashing first gives both sides one length, so timingSafeEqual leaks neither content nor length. */
function tokenOf(secret: string): InstructorToken {
  const expected = sha256(secret);
  return { matches: (candidate) => crypto.timingSafeEqual(sha256(candidate), expected) };
}

export async function resolveInstructorToken(configured: string | null, coordination: Redis | null, log: (line: string) => void): Promise<InstructorToken> {
  if (configured) return tokenOf(configured);
  let token = crypto.randomBytes(18).toString('base64url');
  if (coordination && (await coordination.set(TOKEN_KEY, token, 'NX')) !== 'OK') {
    const shared = await coordination.get(TOKEN_KEY);
    if (!shared) throw new Error('The coordination Redis lost the shared instructor token while it was read');
    token = shared;
  }
  log(`[locklab] instructor token (set LOCKLAB_INSTRUCTOR_TOKEN to choose one): ${token}`);
  return tokenOf(token);
}

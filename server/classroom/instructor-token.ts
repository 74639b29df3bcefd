/**
 * The instructor token: from LOCKLAB_INSTRUCTOR_TOKEN, or generated at start.
 * A generated token is written to a file only the server's user can read (in
 * the server's private run folder), and the log names that file and the
 * token's fingerprint, never the token: logs are shipped, kept and shown to
 * more people than the operator. With several servers and no configured
 * token, the first server to start stores its token in the coordination Redis
 * and the others adopt it (and write it to their own file), so any server
 * accepts it. The coordination Redis is private to the servers
 * (docker-compose publishes no port for it).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import type { Redis } from 'ioredis';
import { InstructorProofs } from './instructor-proof';

const TOKEN_KEY = 'locklab:instructor-token';

const sha256 = (value: string): Buffer => crypto.createHash('sha256').update(value, 'utf8').digest();

export interface InstructorToken {
  matches(candidate: string): boolean;
  /** The instructor's ticket and cookie, signed under a key derived from this token (instructor-proof.ts). */
  proofs: InstructorProofs;
}

/** Constant time: hashing first gives both sides one length, so timingSafeEqual leaks neither content nor length. */
function tokenOf(secret: string): InstructorToken {
  const expected = sha256(secret);
  return { matches: (candidate) => crypto.timingSafeEqual(sha256(candidate), expected), proofs: new InstructorProofs(secret) };
}

/** What the log may say of a token: enough to tell two apart, nothing to use. */
export const tokenFingerprint = (token: string): string => sha256(token).toString('hex').slice(0, 12);

export async function resolveInstructorToken(
  configured: string | null,
  coordination: Redis | null,
  log: (line: string) => void,
  /** Where a generated token is written (mode 0600). */
  tokenFile: string,
): Promise<InstructorToken> {
  if (configured) return tokenOf(configured);
  let token = crypto.randomBytes(18).toString('base64url');
  if (coordination && (await coordination.set(TOKEN_KEY, token, 'NX')) !== 'OK') {
    const shared = await coordination.get(TOKEN_KEY);
    if (!shared) throw new Error('The coordination Redis lost the shared instructor token while it was read');
    token = shared;
  }
  fs.writeFileSync(tokenFile, `${token}\n`, { mode: 0o600, flag: 'w' });
  fs.chmodSync(tokenFile, 0o600);
  log(`[locklab] instructor token: generated, fingerprint ${tokenFingerprint(token)}; read it from ${tokenFile} (set LOCKLAB_INSTRUCTOR_TOKEN to choose one)`);
  return tokenOf(token);
}

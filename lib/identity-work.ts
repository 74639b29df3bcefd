/**
 * The work a browser does once to be given an identity, and a script pays
 * again for every identity it wants (hashcash, as bot walls do): find a
 * nonce such that SHA-256(`<challenge>:<nonce>`) starts with `bits` zero
 * bits. About 2^bits tries on average; the server checks a solution with one
 * hash. Isomorphic (no Node, no WebCrypto): WebCrypto's digest is one
 * promise per hash, about ten times slower than this loop for 2^18 short
 * messages, which would make a real browser wait seconds.
 *
 * The solver hashes the challenge's full 64-byte blocks once and then only
 * the last block or two per nonce, in place, without allocating.
 */

/** The message a solution is hashed as (ASCII: challenges are base64url and dots, nonces decimal). */
export const workMessage = (challenge: string, nonce: string): string => `${challenge}:${nonce}`;

const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01,
  0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc,
  0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147,
  0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08,
  0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
  0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);
const INITIAL = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];

/** One compression of the 64-byte block at `bytes[offset..]` into `state`; `w` is scratch. */
function compress(state: Int32Array, w: Int32Array, bytes: Uint8Array, offset: number): void {
  for (let i = 0; i < 16; i++) {
    const j = offset + i * 4;
    w[i] = (bytes[j]! << 24) | (bytes[j + 1]! << 16) | (bytes[j + 2]! << 8) | bytes[j + 3]!;
  }
  for (let i = 16; i < 64; i++) {
    const a = w[i - 15]!;
    const b = w[i - 2]!;
    const s0 = ((a >>> 7) | (a << 25)) ^ ((a >>> 18) | (a << 14)) ^ (a >>> 3);
    const s1 = ((b >>> 17) | (b << 15)) ^ ((b >>> 19) | (b << 13)) ^ (b >>> 10);
    w[i] = (w[i - 16]! + s0 + w[i - 7]! + s1) | 0;
  }
  let a = state[0]!, b = state[1]!, c = state[2]!, d = state[3]!, e = state[4]!, f = state[5]!, g = state[6]!, h = state[7]!;
  for (let i = 0; i < 64; i++) {
    const S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
    const t1 = (h + S1 + ((e & f) ^ (~e & g)) + K[i]! + w[i]!) | 0;
    const S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
    const t2 = (S0 + ((a & b) ^ (a & c) ^ (b & c))) | 0;
    h = g;
    g = f;
    f = e;
    e = (d + t1) | 0;
    d = c;
    c = b;
    b = a;
    a = (t1 + t2) | 0;
  }
  state[0] = (state[0]! + a) | 0;
  state[1] = (state[1]! + b) | 0;
  state[2] = (state[2]! + c) | 0;
  state[3] = (state[3]! + d) | 0;
  state[4] = (state[4]! + e) | 0;
  state[5] = (state[5]! + f) | 0;
  state[6] = (state[6]! + g) | 0;
  state[7] = (state[7]! + h) | 0;
}

/** Leading zero bits of a digest given as its eight big-endian words. */
function zeroBits(state: Int32Array): number {
  let n = 0;
  for (let i = 0; i < 8; i++) {
    const word = state[i]!;
    if (word === 0) {
      n += 32;
      continue;
    }
    return n + Math.clz32(word);
  }
  return n;
}

/** Leading zero bits of a digest as bytes (the server's check, on node:crypto's digest). */
export function leadingZeroBits(digest: Uint8Array): number {
  let n = 0;
  for (const byte of digest) {
    if (byte === 0) {
      n += 8;
      continue;
    }
    return n + Math.clz32(byte) - 24;
  }
  return n;
}

const ascii = (text: string): Uint8Array => {
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i) & 0xff;
  return bytes;
};

/** SHA-256 of an ASCII string, as hex (for tests: the solver's hash is node:crypto's). */
export function sha256Hex(text: string): string {
  const bytes = ascii(text);
  const padded = new Uint8Array(Math.ceil((bytes.length + 9) / 64) * 64);
  padded.set(bytes);
  padded[bytes.length] = 0x80;
  new DataView(padded.buffer).setUint32(padded.length - 4, bytes.length * 8);
  const state = Int32Array.from(INITIAL);
  const w = new Int32Array(64);
  for (let off = 0; off < padded.length; off += 64) compress(state, w, padded, off);
  return [...state].map((x) => (x >>> 0).toString(16).padStart(8, '0')).join('');
}

export interface SolveOptions {
  /** Tries between two yields to the event loop, so a page stays responsive while it works. */
  sliceTries?: number;
  /** Gives the event loop a turn (a page: a macrotask); absent: the search runs to its end at once. */
  pause?: () => Promise<void>;
}

/** Finds a nonce for `challenge` worth `bits` zero bits. Expected tries: 2^bits. */
export async function solveWork(challenge: string, bits: number, options: SolveOptions = {}): Promise<string> {
  const prefix = ascii(`${challenge}:`);
  const fullBlocks = Math.floor(prefix.length / 64);
  const mid = Int32Array.from(INITIAL);
  const w = new Int32Array(64);
  for (let b = 0; b < fullBlocks; b++) compress(mid, w, prefix, b * 64);
  const rest = prefix.subarray(fullBlocks * 64);
  // The tail: what is left of the prefix, the nonce (up to 16 digits), the 0x80 and the length: two blocks at most.
  const tail = new Uint8Array(128);
  tail.set(rest);
  const state = new Int32Array(8);
  const digits = new Uint8Array(16);
  const slice = options.sliceTries ?? 1 << 30;
  for (let nonce = 0, sinceYield = 0; ; nonce++, sinceYield++) {
    if (sinceYield >= slice && options.pause) {
      sinceYield = 0;
      await options.pause();
    }
    // The nonce's decimal digits, written straight into the tail.
    let n = nonce;
    let len = 0;
    do {
      digits[len++] = 48 + (n % 10);
      n = Math.floor(n / 10);
    } while (n > 0);
    let at = rest.length;
    for (let i = len - 1; i >= 0; i--) tail[at++] = digits[i]!;
    tail[at++] = 0x80;
    const blocks = at + 8 <= 64 ? 1 : 2;
    tail.fill(0, at, blocks * 64);
    const bitLength = (prefix.length + len) * 8;
    const end = blocks * 64;
    tail[end - 4] = (bitLength >>> 24) & 0xff;
    tail[end - 3] = (bitLength >>> 16) & 0xff;
    tail[end - 2] = (bitLength >>> 8) & 0xff;
    tail[end - 1] = bitLength & 0xff;
    state.set(mid);
    compress(state, w, tail, 0);
    if (blocks === 2) compress(state, w, tail, 64);
    if (zeroBits(state) >= bits) return String(nonce);
  }
}

// Console output for the locklab command: one prefix so its lines stand out
// among the npm, apt, Next.js and test-runner output they are interleaved with.

const PREFIX = '[locklab]';

export function info(message) {
  console.log(`${PREFIX} ${message}`);
}

export function warn(message) {
  console.warn(`${PREFIX} warning: ${message}`);
}

/** A failure the user can act on: printed without a stack trace. */
export class LocklabError extends Error {
  constructor(message, exitCode = 1, { interrupted = false } = {}) {
    super(message);
    this.name = 'LocklabError';
    this.exitCode = exitCode;
    /** Stopped by a signal (Ctrl-C, SIGTERM): nothing after it should run. */
    this.interrupted = interrupted;
  }
}

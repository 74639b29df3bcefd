/**
 * How many redis-servers may be starting at once, server-wide. A class that
 * opens its labs together starts hundreds of nodes in the same second; on two
 * cores each then takes longer than its start timeout to answer PING, and
 * some labs failed to start at all ("did not answer PING within 10000 ms": 2
 * of 40). Starts past the bound wait their turn, first come first served, and
 * a node's start timeout counts from its own spawn, not from its wait.
 */
export const NODE_STARTS_AT_ONCE = startsFromEnv();

function startsFromEnv(): number {
  const raw = process.env.LOCKLAB_NODE_STARTS;
  if (raw === undefined || raw === '') return 10;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new Error(`LOCKLAB_NODE_STARTS must be a positive integer (got "${raw}")`);
  return n;
}

export class StartGate {
  private running = 0;
  private readonly waiting: (() => void)[] = [];
  /** The most starts that ran at once (for the operator's metrics and the tests' observations). */
  peak = 0;

  constructor(readonly limit: number) {}

  /** Starts waiting for their turn now. */
  get queued(): number {
    return this.waiting.length;
  }

  /** Runs `start` once fewer than `limit` others run; its place is given back however it ends. */
  async run<T>(start: () => Promise<T>): Promise<T> {
    if (this.running >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.running++;
    this.peak = Math.max(this.peak, this.running);
    try {
      return await start();
    } finally {
      // The place passes straight to the next in line (running stays the same), or is given back.
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }
}

/** The server's one gate: every node start of every lab passes it. */
export const nodeStarts = new StartGate(NODE_STARTS_AT_ONCE);

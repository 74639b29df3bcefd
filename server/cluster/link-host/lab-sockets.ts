/**
 * Each lab's share of the link process's file descriptors. Every connection a
 * learner opens is a socket accepted here, plus one to the node; a program
 * opening them in a loop against a black-holed node once took the link
 * process to 19,823 of its 20,000 descriptors, and every other lab's
 * connections failed with EMFILE. So each lab may hold at most `perLab`
 * sockets here, its links' listening sockets and its connections': past it, a
 * new connection to that lab's links is reset as it is accepted (the learner's
 * client sees the connection fail, and the lab's run says why), and every
 * other lab is untouched. A listening socket is counted but never refused (a
 * lab's links must listen; a lab has at most LISTENERS_PER_LAB, well within a
 * share), so a lab with few links has room for more connections.
 *
 * The share comes from the process's own limit (RLIMIT_NOFILE, read from
 * /proc/self/limits), less the process's own descriptors, divided by the labs
 * the server may hold; an operator may set it (LOCKLAB_LINK_SOCKETS_PER_LAB).
 */
import fs from 'node:fs';
import { MAX_CLIENTS, MAX_NODES } from '@/lib/cluster';

/** Listening sockets one lab's links may hold at worst: a link per client × node, and the replication link (counted, never refused). */
export const LISTENERS_PER_LAB = MAX_CLIENTS * MAX_NODES + 1;
/** The process's own descriptors: stdio, IPC, epoll, a few spare. */
const OWN_DESCRIPTORS = 64;
/** No lab gets less, whatever the arithmetic (a lesson needs a few dozen links and connections). */
export const MIN_SOCKETS_PER_LAB = 64;

/** The soft RLIMIT_NOFILE of this process (what accept() runs into), or 1024 when it cannot be read. */
export function openFileLimit(limitsText?: string): number {
  let text = limitsText;
  try {
    text ??= fs.readFileSync('/proc/self/limits', 'utf8');
  } catch {
    return 1024;
  }
  const soft = /^Max open files\s+(\d+|unlimited)\s/m.exec(text)?.[1];
  if (!soft) return 1024;
  return soft === 'unlimited' ? Number.MAX_SAFE_INTEGER : Number(soft);
}

/** One lab's share of `limit` descriptors among `labs` labs. */
export function socketsPerLab(limit: number, labs: number): number {
  return Math.max(MIN_SOCKETS_PER_LAB, Math.floor((limit - OWN_DESCRIPTORS) / Math.max(1, labs)));
}

/** What the link process is told of the budget: how many labs share it, and the operator's figure, if any. */
export interface SocketBudget {
  labs: number;
  perLab: number | null;
}

/** A lab's connection sockets refused past its share: said at most once a second per lab. */
export interface SocketsRefused {
  lab: string;
  held: number;
  perLab: number;
}

/** What a link asks of its lab's share: a connection's socket more (false: refused), a listening socket (never refused), one less. */
export interface SocketAccount {
  take(): boolean;
  hold(): void;
  give(): void;
}

/** No budget: links outside any lab (tests that build a proxy alone). */
export const UNCOUNTED: SocketAccount = { take: () => true, hold: () => undefined, give: () => undefined };

const REPORT_EVERY_MS = 1_000;

export class LabSockets {
  private readonly held = new Map<string, number>();
  private readonly reportedAt = new Map<string, number>();
  private perLab: number;

  constructor(
    private readonly report: (refused: SocketsRefused) => void,
    private readonly limit: number = openFileLimit(),
    budget: SocketBudget = { labs: 1, perLab: null },
  ) {
    this.perLab = this.share(budget);
  }

  private share(budget: SocketBudget): number {
    return budget.perLab ?? socketsPerLab(this.limit, budget.labs);
  }

  configure(budget: SocketBudget): void {
    this.perLab = this.share(budget);
  }

  get budget(): number {
    return this.perLab;
  }

  /** Sockets `lab` holds now. */
  heldBy(lab: string): number {
    return this.held.get(lab) ?? 0;
  }

  account(lab: string): SocketAccount {
    return {
      take: () => {
        const held = this.heldBy(lab);
        if (held >= this.perLab) {
          this.refused(lab, held);
          return false;
        }
        this.held.set(lab, held + 1);
        return true;
      },
      hold: () => {
        this.held.set(lab, this.heldBy(lab) + 1);
      },
      give: () => {
        const held = this.heldBy(lab) - 1;
        if (held > 0) this.held.set(lab, held);
        else this.held.delete(lab);
      },
    };
  }

  private refused(lab: string, held: number): void {
    const now = performance.now();
    if (now - (this.reportedAt.get(lab) ?? -Infinity) < REPORT_EVERY_MS) return;
    this.reportedAt.set(lab, now);
    if (this.reportedAt.size > 10_000) this.reportedAt.clear();
    this.report({ lab, held, perLab: this.perLab });
  }
}

/**
 * How many learner connections may be open at once, per client and per run. Each one is a socket of
 * the server's (through the client's link), so a program that opens them in a loop — with a long
 * connectTimeout, on a black-holed node — once took every file descriptor the server had, and other
 * learners' runs and websockets failed. Past a cap, the new connection is refused the way an OS
 * refuses a socket (EMFILE), only to the client that asked; the run and the other clients go on.
 */
import type { Said } from '@/lib/words';
import type { SandboxLimits } from '../types';
import { LIMIT_WORDS } from './limit-words';
import { ANY_ROOM, type DescriptorRoom } from './descriptor-room';

/** A place taken: `release` gives it back (once; calling it again does nothing). */
export type Place = { ok: true; release: () => void } | { ok: false; refusal: Said };

export class ConnectionPlaces {
  private readonly perClient = new Map<number, number>();
  private total = 0;

  constructor(
    private readonly limits: Pick<SandboxLimits, 'maxConnectionsPerClient' | 'maxConnectionsPerRun'>,
    /** The web server's reserve of descriptors, which no run's connection may take (server/ops/descriptors.ts). */
    private readonly room: DescriptorRoom = ANY_ROOM,
  ) {}

  /** Connections `client` holds now. */
  held(client: number): number {
    return this.perClient.get(client) ?? 0;
  }

  /** Connections the whole run holds now. */
  get heldByRun(): number {
    return this.total;
  }

  /** One more connection for `client`, or the sentence that says why not. */
  take(client: number): Place {
    const mine = this.held(client);
    const { maxConnectionsPerClient, maxConnectionsPerRun } = this.limits;
    if (mine >= maxConnectionsPerClient) return { ok: false, refusal: LIMIT_WORDS.connectionsPerClient(client, maxConnectionsPerClient) };
    if (this.total >= maxConnectionsPerRun) return { ok: false, refusal: LIMIT_WORDS.connectionsPerRun(client, maxConnectionsPerRun) };
    if (!this.room.take()) return { ok: false, refusal: LIMIT_WORDS.serverReserve(client) };
    this.perClient.set(client, mine + 1);
    this.total += 1;
    let released = false;
    return {
      ok: true,
      release: () => {
        if (released) return;
        released = true;
        this.perClient.set(client, this.held(client) - 1);
        this.total -= 1;
      },
    };
  }
}

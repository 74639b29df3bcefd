/**
 * The lab's links, one per client × node, created on first use. A link's
 * fault state exists before anyone connects through it, so a scenario can cut
 * Client 2's path to Node 3 before Client 2 starts.
 */
import type { LinkView } from '@/lib/cluster';
import { clientLabel, nodeLabel } from '@/lib/cluster';
import { openLink } from './link-host';
import type { Link, LinkTarget } from './link-proxy';

export class LinkTable {
  private readonly links = new Map<string, Link>();

  constructor(
    private readonly targetFor: (node: number) => LinkTarget,
    /** The lab whose share of the links' descriptors these links' connections count against. */
    private readonly lab: string,
  ) {}

  private static key(client: number, node: number): string {
    return `${client}:${node}`;
  }

  get(client: number, node: number): Link {
    const key = LinkTable.key(client, node);
    let link = this.links.get(key);
    if (!link) {
      link = openLink(`${clientLabel(client)} → ${nodeLabel(node)}`, this.targetFor(node), this.lab);
      this.links.set(key, link);
    }
    return link;
  }

  /** The loopback port a client uses to reach a node, listening from now on. */
  async portFor(client: number, node: number): Promise<number> {
    return this.get(client, node).ensureListening();
  }

  view(client: number, node: number): LinkView {
    const link = this.links.get(LinkTable.key(client, node));
    return { client, node, cut: link?.cut ?? null, delayMs: link?.delayMs ?? 0, jitterMs: link?.jitterMs ?? 0 };
  }

  /** Links of clients 1..clients, plus any other link that carries a fault. */
  views(clients: number, nodes: number): LinkView[] {
    const out: LinkView[] = [];
    for (let c = 1; c <= clients; c++) for (let n = 1; n <= nodes; n++) out.push(this.view(c, n));
    for (const [key, link] of this.links) {
      const [c, n] = key.split(':').map(Number) as [number, number];
      if (c > clients && (link.cut || link.delayMs || link.jitterMs)) out.push(this.view(c, n));
    }
    return out;
  }

  /**
   * Heals every cut, removes every delay and drops open connections (a lab
   * restore). A link that cannot listen on its port again (another program
   * took it while the link refused) is replaced: between runs no client holds
   * its port, and the next run asks for a fresh one.
   */
  async resetFaults(): Promise<void> {
    await Promise.all(
      [...this.links].map(async ([key, link]) => {
        if (link.cut) {
          try {
            await link.heal();
          } catch {
            this.links.delete(key);
            await link.close();
            return;
          }
        }
        link.setDelay(0, 0);
        link.resetConnections();
      }),
    );
  }

  /** A node's state or port changed: every link learns where its node is now. */
  refreshTargets(): void {
    for (const link of this.links.values()) link.refreshTarget();
  }

  /** Resets every connection of one client (a crash) or to one node. */
  resetWhere(match: (client: number, node: number) => boolean): void {
    for (const [key, link] of this.links) {
      const [c, n] = key.split(':').map(Number) as [number, number];
      if (match(c, n)) link.resetConnections();
    }
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.links.values()].map((link) => link.close()));
    this.links.clear();
  }
}

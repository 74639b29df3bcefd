// Wrong: when Node 1 (the token counter) does not answer, takes the token from the next node's counter.
// Each node counts on its own: while Node 1 is down, Node 2's counter hands out a
// token the store has already seen (or a smaller one), so the new holder's write is
// refused and the tokens no longer follow the grants. Wait for the one counter instead.

// Stay available: no connection of its own that waits for Node 1 ...
const counter = nodes[0]!;

// ... and if a node does not answer, ask the next one.
async function nextToken(key: string): Promise<number> {
  for (const node of nodes) {
    try {
      return Number(await node.incr(key));
    } catch {
      // that node is down: try the next
    }
  }
  throw new Error('no node could hand out a token');
}

const token = await nextToken('fencing:invoice-2024-06');

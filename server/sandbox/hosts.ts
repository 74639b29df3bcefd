/**
 * How the host names and ports in a learner's program map to the lab's nodes.
 * Pure, so the editor's help and the server agree. See README.md for the table.
 */

const LOOPBACK = new Set(['localhost', '127.0.0.1', '::1', '0.0.0.0', '']);
const BASE_PORT = 6379;

/**
 * Node number a host/port names, or null if it names none of `nodes`.
 * - `redis-2`, `redis-2.internal`, `redis2`, `node-2`, `node2.lab` → Node 2 (port ignored)
 * - `redis-a`, `redis-b.internal` … → Node 1, Node 2 … (letters a–z)
 * - `localhost` / `127.0.0.1` / `redis` with port 6379 → Node 1, 6380 → Node 2, …
 */
export function defaultResolveNode(host: string, port: number, nodes: readonly number[]): number | null {
  const name = host.trim().toLowerCase().split('.')[0] ?? '';
  let node: number | null = null;
  const numbered = /^(?:redis|node)-?(\d+)$/.exec(name);
  const lettered = /^(?:redis|node)-([a-z])$/.exec(name);
  if (numbered) node = Number(numbered[1]);
  else if (lettered) node = (lettered[1] ?? 'a').charCodeAt(0) - 96;
  else if (LOOPBACK.has(host.trim().toLowerCase()) || name === 'redis') node = port - BASE_PORT + 1;
  return node !== null && nodes.includes(node) ? node : null;
}

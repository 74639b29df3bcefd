/** What /proc says of the lab server's processes and threads, for the benchmarks that measure it from outside. */
import fs from 'node:fs';
import { LINK_PROCESS_HEAP_MB } from '@/server/cluster/link-host/link-host';
import { NODE_HOST_HEAP_MB } from '@/server/cluster/node-host/node-host';
import { HOST_HEAP_MB } from '@/server/sandbox/host/sandbox-host';
import { descendants as processesBelow } from '../tests/helpers/process-tree';

/** [ran ns, waited ns] of one task (`/proc/<pid>` or `/proc/<pid>/task/<tid>`): Linux's run-queue delay is the second. */
export function schedstat(task: string): [number, number] {
  try {
    const [ran, waited] = fs.readFileSync(`${task}/schedstat`, 'utf8').split(' ').map(Number);
    return [ran ?? 0, waited ?? 0];
  } catch {
    return [0, 0];
  }
}

/** CPU ns a process ran, all its threads together (0 once it is gone). */
export function processRan(pid: number): number {
  let ns = 0;
  try {
    for (const tid of fs.readdirSync(`/proc/${pid}/task`)) ns += schedstat(`/proc/${pid}/task/${tid}`)[0];
  } catch {
    /* gone */
  }
  return ns;
}

/** Every process below `pid` (children, their children, …). */
export function descendants(pid: number): number[] {
  return processesBelow(pid).map((p) => p.pid);
}

/** What a process below the lab server is: the helpers are told apart by the heap each is given. */
export function kindOf(pid: number): string {
  try {
    const cmd = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    if (cmd.startsWith('redis-server')) return 'redis-servers';
    if (cmd.includes(`--max-old-space-size=${NODE_HOST_HEAP_MB}\0`)) return 'node host';
    if (cmd.includes(`--max-old-space-size=${LINK_PROCESS_HEAP_MB}\0`)) return 'link process';
    if (cmd.includes(`--max-old-space-size=${HOST_HEAP_MB}\0`)) return 'sandbox hosts';
    return 'other (tsx, setpriv)';
  } catch {
    return 'gone';
  }
}

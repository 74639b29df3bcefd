/** The process tree as /proc tells it, for tests and benchmarks that observe what the lab and the browser run as. */
import fs from 'node:fs';

export interface ProcStat {
  pid: number;
  /** The process's name (field 2). */
  comm: string;
  ppid: number;
  nice: number;
}

/** Fields 2, 4 and 19 of /proc/<pid>/stat; null once the process is gone. */
export function procStat(pid: number): ProcStat | null {
  let text: string;
  try {
    text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ESRCH') return null;
    throw error;
  }
  const close = text.lastIndexOf(')');
  const rest = text.slice(close + 2).split(' ');
  return { pid, comm: text.slice(text.indexOf('(') + 1, close), ppid: Number(rest[1]), nice: Number(rest[16]) };
}

/** Every live process below `root` (children, their children, …). */
export function descendants(root: number): ProcStat[] {
  const all = fs
    .readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .flatMap((entry) => procStat(Number(entry)) ?? []);
  const below = new Set([root]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const p of all) {
      if (below.has(p.pid) || !below.has(p.ppid)) continue;
      below.add(p.pid);
      grew = true;
    }
  }
  return all.filter((p) => p.pid !== root && below.has(p.pid));
}

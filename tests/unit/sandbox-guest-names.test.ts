/**
 * The op names the sandbox's host and guest modules exchange are declared once, in the host's tables
 * (server/sandbox/worker/guest-names.ts), and the guest reads them from `__host.names`. A misspelled
 * name in a guest file would only fail when that line runs, so this reads the guest files: every name
 * they use exists, none is spelled as a string, and no table entry is left without a caller.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { GUEST_NAMES, GUEST_NAMES_SOURCE } from '@/server/sandbox/worker/guest-names';

const GUEST_DIR = new URL('../../server/sandbox/guest/', import.meta.url);
const guestFiles = readdirSync(GUEST_DIR)
  .filter((name) => name.endsWith('.js'))
  .map((name) => ({ name, code: readFileSync(new URL(name, GUEST_DIR), 'utf8') }));

const TABLES = { CALL: GUEST_NAMES.call, REQUEST: GUEST_NAMES.request, DISPATCH: GUEST_NAMES.dispatch } as const;

/** Every `CALL.x`, `REQUEST.x` and `DISPATCH.x` in the guest files. */
function usedNames(): Array<{ file: string; table: keyof typeof TABLES; name: string }> {
  const used: Array<{ file: string; table: keyof typeof TABLES; name: string }> = [];
  for (const { name: file, code } of guestFiles) {
    for (const m of code.matchAll(/\b(CALL|REQUEST|DISPATCH)\.(\w+)/g)) {
      used.push({ file, table: m[1] as keyof typeof TABLES, name: m[2] ?? '' });
    }
  }
  return used;
}

describe('host ↔ guest op names', () => {
  it('finds the guest files', () => {
    expect(guestFiles.map((f) => f.name)).toEqual(expect.arrayContaining(['core.js', 'ioredis.js', 'node-redis.js', 'redlock.js']));
  });

  it('every name a guest file uses is in the host tables', () => {
    const unknown = usedNames().filter((u) => !Object.hasOwn(TABLES[u.table], u.name));
    expect(unknown).toEqual([]);
  });

  it('no guest file spells an op as a string', () => {
    // `redis.call("get", …)` inside Lua source and `x.call(...)` are not host calls: only a bare call( / request( is.
    const literal = guestFiles.flatMap((f) => [...f.code.matchAll(/(?<![.\w])(call|request)\(\s*['"`][^'"`]*/g)].map((m) => `${f.name}: ${m[0]}`));
    expect(literal).toEqual([]);
    const dispatch = guestFiles.flatMap((f) => [...f.code.matchAll(/kind === ['"`]\w+/g)].map((m) => `${f.name}: ${m[0]}`));
    expect(dispatch).toEqual([]);
  });

  it('every host call, request and dispatch kind has a user in the guest', () => {
    const used = new Set(usedNames().map((u) => `${u.table}.${u.name}`));
    const unused = Object.entries(TABLES).flatMap(([table, names]) => Object.keys(names).map((n) => `${table}.${n}`)).filter((n) => !used.has(n));
    expect(unused).toEqual([]);
  });

  it('hands the guest the same names, frozen all the way down', () => {
    const names: unknown = runInNewContext(GUEST_NAMES_SOURCE);
    expect(JSON.parse(JSON.stringify(names))).toEqual(GUEST_NAMES);
    const frozen = (v: unknown): boolean => v === null || typeof v !== 'object' || (Object.isFrozen(v) && Object.values(v).every(frozen));
    expect(frozen(names)).toBe(true);
    for (const table of Object.values(GUEST_NAMES)) for (const [key, value] of Object.entries(table)) expect(value).toBe(key);
  });
});

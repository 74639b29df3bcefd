/**
 * Errors point at the learner's line: a client stopped for never yielding is marked at the loop it spun in
 * (not at line 1), and a member a lab module does not have is an error naming it and what exists, at the
 * line that read it — never a silent undefined.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandboxPool, type SandboxPool } from '@/server/sandbox';
import { startRedisServers, type TestRedisCluster } from '../helpers/redis-server';
import { startProgram } from '../helpers/sandbox-run';

let cluster: TestRedisCluster;
let pool: SandboxPool;
beforeAll(async () => {
  cluster = await startRedisServers(1);
  pool = createSandboxPool({ warmWorkers: 1 });
  await pool.whenWarm();
});
afterAll(async () => {
  await pool?.close();
  await cluster?.stop();
});

const LOOPS: { name: string; code: string; line: number }[] = [
  { name: 'at the top level', code: `import lab from 'lab';\nconst a = lab.client;\n\nwhile (true) {}`, line: 4 },
  {
    name: 'after an await, with no call inside the loop',
    code: `import Redis from 'ioredis';\nconst r = new Redis(6379);\nawait r.set('k', 'v');\nlet i = 0;\nwhile (true) { i++; }`,
    line: 5,
  },
  { name: 'inside a function a timer calls', code: `function spin() {\n  for (;;) {}\n}\nsetTimeout(() => {\n  spin();\n}, 1);`, line: 2 },
  { name: 'in an async function whose rejection is swallowed', code: `async function f() {\n  await null;\n  for (;;) {}\n}\nf().catch(() => {});`, line: 3 },
  {
    name: 'after a finished loop',
    code: `import lab from 'lab';\nlet sum = 0;\nfor (const x of [1, 2, 3]) sum += Math.abs(x);\nlab.log('sum', sum);\nwhile (sum > 0) {\n  sum += 1;\n}`,
    line: 5,
  },
];

describe('an endless loop', () => {
  it.each(LOOPS)('is marked at its line: $name', async ({ code, line }) => {
    const run = startProgram(pool, cluster, code);
    const outcome = await run.done;
    expect(outcome.status).toBe('limit');
    const limits = run.diagnostics.filter((d) => d.kind === 'limit');
    expect(limits).toHaveLength(1);
    expect(limits[0]?.line).toBe(line);
    expect(limits[0]?.message).toMatch(/without yielding/);
    expect(outcome.clients[0]?.error).toContain(`It was at line ${line}.`);
    // The interrupt itself is not reported as an error of the learner's own.
    expect(run.diagnostics.filter((d) => d.kind === 'runtime')).toEqual([]);
  });
});

describe('a member a module does not have', () => {
  it('is an error at its line naming the member, what exists, and a near miss', async () => {
    const run = startProgram(pool, cluster, `import lab from 'lab';\nconst me = 1;\nlab.log('client', lab.clientID);`);
    await run.done;
    expect(run.diagnostics).toHaveLength(1);
    expect(run.diagnostics[0]).toMatchObject({ kind: 'runtime', line: 3 });
    expect(run.diagnostics[0]?.message).toContain("The 'lab' module has no member 'clientID'. Did you mean 'clientId'? It has: client, clientId,");
  });

  it('is checked on a module’s plain objects (lab.store) and on named imports, in every module', async () => {
    const store = startProgram(pool, cluster, `import lab from 'lab';\n\nawait lab.store.wrte('k', 'v');`);
    await store.done;
    expect(store.diagnostics[0]).toMatchObject({ line: 3 });
    expect(store.diagnostics[0]?.message).toContain("lab.store has no member 'wrte'. It has: write, read.");

    const named = startProgram(pool, cluster, `import { createClient } from 'redis';\nimport { randomUuid } from 'crypto';\nconsole.log(typeof createClient, randomUuid());`);
    await named.done;
    expect(named.diagnostics[0]).toMatchObject({ line: 3 });
    expect(named.diagnostics[0]?.message).toContain("The 'crypto' module has no member 'randomUuid'. Did you mean 'randomUUID'?");

    const ioredis = startProgram(pool, cluster, `import Redis from 'ioredis';\nconst r = Redis.createClient();`);
    await ioredis.done;
    expect(ioredis.diagnostics[0]?.message).toContain("The 'ioredis' module has no member 'createClient'.");
  });

  it('leaves what exists, subclasses, instances and interop alone', async () => {
    const code = [
      "import Redis from 'ioredis';",
      "import Redlock from 'redlock';",
      "import * as everything from 'lab';",
      "import lab, { clientId } from 'lab';",
      'class Mine extends Redis {}',
      'const r = new Mine(6379);',
      "await r.set('k', String(clientId));",
      'const redlock = new Redlock([r]);',
      'lab.log(typeof everything.default.sleep, r instanceof Redis, typeof redlock.acquire, (Mine as unknown as { extra?: number }).extra);',
      'await Promise.resolve(lab);',
      'r.disconnect();',
    ].join('\n');
    const run = startProgram(pool, cluster, code);
    const outcome = await run.done;
    expect(run.diagnostics).toEqual([]);
    expect(outcome.status).toBe('completed');
    expect(run.console(1)).toEqual(['function true function undefined']);
  });
});

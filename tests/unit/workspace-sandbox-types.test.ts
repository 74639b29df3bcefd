/**
 * The editor's type definitions for the sandbox's modules, checked with the
 * TypeScript compiler as Monaco's worker would: the starter programs type-
 * check cleanly, and a misuse gets a red squiggle.
 */
import { readdirSync, readFileSync } from 'node:fs';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { SANDBOX_TYPE_FILES } from '@/components/editor/sandbox-types';
import { PLAYGROUND_STARTER } from '@/components/playground/playground-lesson';

function diagnose(code: string): string[] {
  const files = new Map<string, string>(SANDBOX_TYPE_FILES.map((f) => [f.path.replace('file://', ''), f.content]));
  files.set('/lab/program.ts', code);
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Node10,
    lib: ['lib.es2022.d.ts'],
    esModuleInterop: true,
    allowSyntheticDefaultImports: true,
    noEmit: true,
    strict: false,
    types: [],
    moduleDetection: ts.ModuleDetectionKind.Force,
  };
  const host = ts.createCompilerHost(options);
  const read = host.readFile.bind(host);
  host.readFile = (name) => files.get(name) ?? read(name);
  host.fileExists = (name) => files.has(name) || ts.sys.fileExists(name);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, version) => {
    const text = files.get(name);
    return text !== undefined ? ts.createSourceFile(name, text, version) : getSourceFile(name, version);
  };
  const program = ts.createProgram(['/lab/program.ts', ...[...files.keys()].filter((n) => n.endsWith('.d.ts'))], options, host);
  return ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}

describe('sandbox type definitions', () => {
  it('type-check the playground starter (ioredis, redlock, lab, top-level await)', () => {
    expect(diagnose(PLAYGROUND_STARTER)).toEqual([]);
  });

  it('cover node-redis, crypto, node-cron, require and the fenced store', () => {
    const code = `
      import { createClient } from 'redis';
      import { randomUUID, randomBytes } from 'crypto';
      import cron from 'node-cron';
      import lab from 'lab';
      const Redlock = require('redlock').default;
      const client = createClient({ url: 'redis://redis-1:6379' });
      await client.connect();
      const token = randomUUID() + randomBytes(4).toString('hex');
      const ok = await client.set('lock', token, { NX: true, PX: 1000 });
      cron.schedule('0 6 * * *', async () => { await lab.store.write('invoice', 'sent', 33); });
      const last: string | null = await lab.store.read('invoice');
      await lab.job('send').run(100, async () => { await lab.store.write('invoice', String(last), 34); });
      console.log(ok, new Redlock([]), lab.client, performance.now());
      setTimeout(() => undefined, 10).unref();
    `;
    expect(diagnose(code)).toEqual([]);
  });

  it('cover transactions and pipelines in both clients', () => {
    const code = `
      import Redis from 'ioredis';
      import { createClient, WatchError } from 'redis';
      const r = new Redis({ host: 'redis-1' });
      await r.watch('stock');
      const answers = await r.multi().decr('stock').set('order', 'o-1', 'PX', 5000).exec();
      if (answers === null) console.log('someone else changed the stock');
      else for (const [error, result] of answers) console.log(error?.message, result);
      const piped = await r.pipeline([['get', 'a'], ['get', 'b']]).exec();
      const client = createClient({ url: 'redis://redis-2:6379' });
      await client.connect();
      try {
        const replies: unknown[] = await client.multi().set('k', 'v', { NX: true }).incr('n').exec();
        console.log(replies.length, piped?.length);
      } catch (e) {
        if (e instanceof WatchError) console.log('retry');
      }
    `;
    expect(diagnose(code)).toEqual([]);
  });

  it('flag a misuse, as a red squiggle would', () => {
    const errors = diagnose(`import lab from 'lab';\nawait lab.job('x').run('long');\nimport fs from 'fs';`);
    expect(errors.join('\n')).toMatch(/not assignable to parameter of type 'number'/);
    expect(errors.join('\n')).toMatch(/Cannot find module 'fs'/);
  });

  it('type-check every lesson\'s starter and solution, as a learner sees them in the editor', { timeout: 180_000 }, () => {
    const root = new URL('../../lessons/', import.meta.url);
    const programs = readdirSync(root)
      .filter((name) => /^\d\d-/.test(name))
      .flatMap((lesson) => ['starter.ts', 'solution.ts'].map((file) => `${lesson}/${file}`));
    expect(programs.length).toBeGreaterThan(0);
    const errors = programs.flatMap((p) => diagnose(readFileSync(new URL(p, root), 'utf8')).map((e) => `${p}: ${e}`));
    expect(errors).toEqual([]);
  });

  it('flag a store read used without await: the store is remote', () => {
    const errors = diagnose(`import lab from 'lab';\nconst seen: string | null = lab.store.read('invoice');`);
    expect(errors.join('\n')).toMatch(/Type 'Promise<string.*' is not assignable to type 'string'/);
  });
});

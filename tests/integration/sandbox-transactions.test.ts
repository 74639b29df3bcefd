/**
 * multi()/pipeline() in learner code (ioredis and node-redis v4) against real
 * redis-servers: results shaped like the real libraries, WATCH aborts, EXECABORT,
 * and a history that holds every queued command completing when EXEC answers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HistoryInput } from '@/lib/history';
import { createSandboxPool, type SandboxPool } from '@/server/sandbox';
import { startRedisServers, type TestRedisCluster } from '../helpers/redis-server';
import { startProgram } from '../helpers/sandbox-run';

let cluster: TestRedisCluster;
let pool: SandboxPool;

beforeAll(async () => {
  cluster = await startRedisServers(2);
  pool = createSandboxPool({ warmWorkers: 1 });
  await pool.whenWarm();
});

afterAll(async () => {
  await pool?.close();
  await cluster?.stop();
});

type RedisEvent = Extract<HistoryInput, { type: 'redis' }>;
/** Invocations and completions in one shape, so a test can read `error` and `reply` where they exist. */
type RedisOp = RedisEvent & { error?: string; reply?: unknown };
const redisEvents = (events: HistoryInput[]): RedisOp[] => events.filter((e): e is RedisEvent => e.type === 'redis');

describe('ioredis multi() and pipeline()', () => {
  it('runs a transaction, a pipeline and an aborted transaction with the answers ioredis gives', async () => {
    const run = startProgram(
      pool,
      cluster,
      `
import Redis from 'ioredis';
import lab from 'lab';
const r = new Redis({ host: 'redis-1' });
await r.del('tx:a', 'tx:b', 'tx:c', 'tx:h');
const tx = r.multi().set('tx:a', '1').incr('tx:a').hset('tx:h', 'f', 'v').hgetall('tx:h').get('tx:a');
lab.log('queued ' + tx.length);
lab.log(JSON.stringify(await tx.exec()));
const piped = await r.pipeline([['set', 'tx:b', 'x'], ['incr', 'tx:b'], ['get', 'tx:b']]).exec();
lab.log(JSON.stringify(piped.map(([e, v]) => (e ? e.name + ': ' + e.message : v))));
try {
  await r.multi().set('tx:c', '1').call('NOSUCHCOMMAND').exec();
  lab.log('exec resolved');
} catch (e) {
  lab.log('exec rejected: ' + e.name + ': ' + e.message);
}
lab.log('tx:c exists ' + (await r.exists('tx:c')));
try { await tx.exec(); } catch (e) { lab.log('again: ' + e.message); }
r.disconnect();
`,
    );
    const outcome = await run.done;
    expect(outcome.status, JSON.stringify(outcome)).toBe('completed');
    const lines = run.console(1);
    expect(lines[0]).toBe('queued 5');
    expect(JSON.parse(lines[1] ?? 'null')).toEqual([
      [null, 'OK'],
      [null, 2],
      [null, 1],
      [null, { f: 'v' }],
      [null, '2'],
    ]);
    expect(JSON.parse(lines[2] ?? 'null')).toEqual(['OK', 'ReplyError: ERR value is not an integer or out of range', 'x']);
    expect(lines[3]).toMatch(/^exec rejected: ReplyError: EXECABORT/);
    expect(lines[4]).toBe('tx:c exists 0');
    expect(lines[5]).toBe('again: Pipeline cannot be used to send any commands when the `exec()` has been called on it.');

    // The history has every command of the transaction, invoked together and completed at EXEC.
    const events = redisEvents(run.events);
    const multiAt = events.findIndex((e) => e.phase === 'invoke' && e.command === 'MULTI');
    const txInvokes = events.slice(multiAt, multiAt + 7);
    expect(txInvokes.map((e) => [e.phase, e.command])).toEqual(
      ['MULTI', 'SET', 'INCR', 'HSET', 'HGETALL', 'GET', 'EXEC'].map((c) => ['invoke', c]),
    );
    const completions = events.filter((e) => e.phase !== 'invoke' && txInvokes.some((i) => i.opId === e.opId));
    expect(completions.map((e) => [e.command, e.phase])).toEqual(
      ['MULTI', 'SET', 'INCR', 'HSET', 'HGETALL', 'GET', 'EXEC'].map((c) => [c, 'ok']),
    );
    expect(completions.find((e) => e.command === 'INCR')).toMatchObject({ reply: 2 });
    // Pipeline: no MULTI; the INCR's own error is a definite failure, the others succeed.
    const pipelineIncr = events.find((e) => e.phase === 'fail' && e.command === 'INCR');
    expect(pipelineIncr?.error).toMatch(/not an integer/);
    // EXECABORT: nothing ran, so every operation of that transaction failed definitely.
    const aborted = events.filter((e) => e.phase !== 'invoke' && /EXECABORT/.test(e.error ?? ''));
    expect(aborted.map((e) => e.command)).toEqual(['MULTI', 'SET', 'NOSUCHCOMMAND', 'EXEC']);
    expect(aborted.every((e) => e.phase === 'fail')).toBe(true);
  });

  it('answers null when a WATCHed key changed, and runs nothing', async () => {
    const run = startProgram(
      pool,
      cluster,
      `
import Redis from 'ioredis';
import lab from 'lab';
const mine = new Redis({ host: 'redis-2' });
const other = new Redis({ host: 'redis-2' });
await mine.set('tx:w', 'start');
await mine.watch('tx:w');
await other.set('tx:w', 'changed by another connection');
lab.log('exec: ' + JSON.stringify(await mine.multi().set('tx:w', 'mine').exec()));
lab.log('value: ' + (await mine.get('tx:w')));
await mine.watch('tx:w');
lab.log('exec: ' + JSON.stringify(await mine.multi().set('tx:w', 'mine').exec()));
lab.log('value: ' + (await mine.get('tx:w')));
mine.disconnect();
other.disconnect();
`,
    );
    const outcome = await run.done;
    expect(outcome.status, JSON.stringify(outcome)).toBe('completed');
    expect(run.console(1)).toEqual(['exec: null', 'value: changed by another connection', 'exec: [[null,"OK"]]', 'value: mine']);
    const events = redisEvents(run.events);
    const notRun = events.find((e) => e.phase === 'fail' && e.command === 'SET');
    expect(notRun?.error).toMatch(/watched key changed/);
    expect(events.filter((e) => e.command === 'EXEC' && e.phase === 'ok').map((e) => e.reply)).toEqual([null, ['OK']]);
  });
  it('refuses an oversized pipeline with a clear error and keeps the client running', async () => {
    const run = startProgram(
      pool,
      cluster,
      `
import Redis from 'ioredis';
import lab from 'lab';
const r = new Redis({ host: 'redis-1' });
const big = r.pipeline();
for (let i = 0; i < 1001; i++) big.get('k' + i);
try { await big.exec(); lab.log('sent'); } catch (e) { lab.log('refused: ' + e.message); }
lab.log('still here: ' + (await r.ping()));
r.disconnect();
`,
    );
    const outcome = await run.done;
    expect(outcome.status, JSON.stringify(outcome)).toBe('completed');
    expect(run.console(1)).toEqual([
      'refused: A pipeline or transaction in the lab holds at most 1000 commands (this one has 1001).',
      'still here: PONG',
    ]);
    expect(redisEvents(run.events).filter((e) => e.command === 'GET')).toEqual([]);
  });
});

describe('node-redis multi()', () => {
  it('resolves with the replies, puts a command error in its place, and throws WatchError', async () => {
    const run = startProgram(
      pool,
      cluster,
      `
import { createClient, WatchError } from 'redis';
import lab from 'lab';
const client = createClient({ url: 'redis://redis-2:6379' });
const other = createClient({ url: 'redis://redis-2:6379' });
await client.connect();
await other.connect();
await client.del(['nr:a', 'nr:h', 'nr:s']);
const replies = await client.multi().set('nr:a', '1', { PX: 5000 }).incr('nr:a').hSet('nr:h', 'f', 'v').hGetAll('nr:h').exec();
lab.log(JSON.stringify(replies));
await client.set('nr:s', 'text');
const mixed = await client.multi().incr('nr:s').get('nr:s').exec();
lab.log(mixed[0].name + ' | ' + mixed[1]);
lab.log(JSON.stringify(await client.multi().get('nr:a').get('nr:s').execAsPipeline()));
await client.watch('nr:a');
await other.set('nr:a', 'changed');
try {
  await client.multi().set('nr:a', 'mine').exec();
  lab.log('exec resolved');
} catch (e) {
  lab.log((e instanceof WatchError) + ' ' + e.message);
}
lab.log('value: ' + (await client.get('nr:a')));
await client.quit();
await other.quit();
`,
    );
    const outcome = await run.done;
    expect(outcome.status, JSON.stringify(outcome)).toBe('completed');
    expect(run.console(1)).toEqual([
      JSON.stringify(['OK', 2, 1, { f: 'v' }]),
      'ErrorReply | text',
      JSON.stringify(['2', 'text']),
      'true One (or more) of the watched keys has been changed',
      'value: changed',
    ]);
  });
});

/**
 * Errors in the learner's terms: for each fault a learner can cause, a command that fails because of it is
 * reported at the learner's line that sent it, in a sentence that says what happened in the lab (not
 * ioredis's "Reached the max retries per request limit (which is 1)" at line 1). Real redis-servers.
 */
import { describe, expect, it } from 'vitest';
import { parseCommand } from '@/lib/commands';
import type { Diagnostic, RunEnded } from '@/lib/run';
import { LabRuns } from '@/server/runs/lab-runs';
import { fault, startLab, useSandboxPool } from './lab-fixture';
import type { Lab } from '@/server/lab/lab';

// The labs are startLab's (destroyed after the file); the pool is the file's.
const pool = useSandboxPool();

/** The command is on line 5, after a comment on line 1 (where the old diagnostic sat). */
const program = (options: string, command = "get('lock:invoice:42')") => `// The learner's program: a comment first.
import Redis from 'ioredis';
const redis = new Redis({ host: 'redis-1.internal'${options} });
await new Promise((r) => setTimeout(r, 50));
const value = await redis.${command};
console.log(value);
`;

async function diagnosticUnder(prepare: (lab: Lab) => Promise<unknown>, options = '', topology: Parameters<typeof startLab>[0] = { nodes: 1 }, command?: string): Promise<Diagnostic> {
  const lab = await startLab(topology, 1);
  await prepare(lab);
  const runs = new LabRuns(lab, pool());
  const diagnostics: Diagnostic[] = [];
  runs.on('diagnostic', (d) => diagnostics.push(d));
  const ended = new Promise<RunEnded>((resolve) => runs.once('ended', resolve));
  await runs.start(parseCommand('run:start', { code: program(options, command), clients: 1 }));
  await ended;
  const runtime = diagnostics.find((d) => d.kind === 'runtime');
  expect(runtime, JSON.stringify(diagnostics)).toBeDefined();
  return runtime!;
}

describe("a command the lab's state failed, in the learner's terms", () => {
  it('node down: refused, at the GET line, after the lab’s one retry', async () => {
    const d = await diagnosticUnder((lab) => fault(lab, 'node-kill', { node: 1 }));
    expect(d.line).toBe(5);
    expect(d.message).toBe(
      "Node 1 is down: the connection was refused; GET at line 5 failed after 1 retry (the lab's default; ioredis retries 20 times). Your program got ioredis's MaxRetriesPerRequestError.",
    );
    expect(d.words?.key).toBe('runNotes.failure.sentenceRetried');
  });

  it('node down, with the learner’s own maxRetriesPerRequest: said as theirs', async () => {
    const d = await diagnosticUnder((lab) => fault(lab, 'node-kill', { node: 1 }), ', maxRetriesPerRequest: 2');
    expect(d.line).toBe(5);
    expect(d.message).toContain('GET at line 5 failed after 2 retries (your maxRetriesPerRequest)');
  });

  it('node paused: no answer within the command timeout', async () => {
    const d = await diagnosticUnder((lab) => fault(lab, 'node-pause', { node: 1 }), ', commandTimeout: 300');
    expect(d.line).toBe(5);
    expect(d.message).toBe("Node 1 is paused: no answer came within 300 ms; GET at line 5 failed. Your program got ioredis's Error: Command timed out.");
  });

  it('link cut (refuse): the link is named', async () => {
    const d = await diagnosticUnder((lab) => fault(lab, 'link-cut', { client: 1, node: 1, mode: 'refuse' }));
    expect(d.line).toBe(5);
    expect(d.message).toMatch(/^The link from Client 1 to Node 1 is cut: the connection was refused; GET at line 5 failed after 1 retry/);
  });

  it('link cut (blackhole): the link is named, the timeout said', async () => {
    const d = await diagnosticUnder((lab) => fault(lab, 'link-cut', { client: 1, node: 1, mode: 'blackhole' }), ', commandTimeout: 300');
    expect(d.line).toBe(5);
    expect(d.message).toMatch(/^The link from Client 1 to Node 1 is cut: no answer came within 300 ms; GET at line 5 failed\./);
  });

  it('link delayed past the command timeout: the delay is named', async () => {
    const d = await diagnosticUnder((lab) => fault(lab, 'link-delay', { client: 1, node: 1, delayMs: 1_000 }), ', commandTimeout: 300');
    expect(d.line).toBe(5);
    expect(d.message).toMatch(/^The link from Client 1 to Node 1 is delayed by 1(\.0)? s: no answer came within 300 ms; GET at line 5 failed\./);
  });

  it('failover: the old master named as what it is now, at the SET line', async () => {
    const d = await diagnosticUnder((lab) => fault(lab, 'failover', {}), ', commandTimeout: 300', { kind: 'replicated' }, "set('lock:invoice:42', 'me')");
    expect(d.line).toBe(5);
    expect(d.message).toMatch(/^Node 1 is (a replica since the failover: it refuses writes|down: the connection was refused); SET at line 5 failed/);
  });
});

/**
 * What the sandbox says when it ends a client for a limit: the English sentence (the run's history, logs,
 * run files) and the same sentence as words for a page in another language (lib/words.ts). Built here as
 * plain data and template strings, not rendered from the catalogue: every run's worker boots this, and the
 * message-format code that rendering needs is not worth its boot time and memory in each worker. A unit test
 * holds each English sentence to its catalogue rendering (tests/unit/grading-run-words.test.ts).
 */
import type { Said, WordValue } from '@/lib/words';

const said = (message: string, key: string, values: Record<string, WordValue>): Said => ({ message, words: { key: `runNotes.${key}`, values } });
const who = (client: number): WordValue => ({ client });

export const LIMIT_WORDS = {
  consoleLimit: (client: number, kb: number) =>
    said(`Client ${client} printed more than ${kb} KB of console output, so the run was stopped.`, 'consoleLimit', { client: who(client), kb: String(kb) }),
  commandRate: (client: number, n: number) =>
    said(`Client ${client} sent more than ${n} Redis commands in one second, so the run was stopped.`, 'commandRate', { client: who(client), n: String(n) }),
  outOfMemory: (client: number, mb: number) =>
    said(`Client ${client} ran out of memory (limit ${mb} MB), so the run was stopped.`, 'outOfMemory', { client: who(client), mb: String(mb) }),
  sliceOverrun: (client: number, ms: number) =>
    said(`Client ${client} ran for more than ${ms} ms without yielding (an endless loop?), so the run was stopped.`, 'sliceOverrun', { client: who(client), ms: String(ms) }),
  wallOverrun: (client: number, ms: number) =>
    said(`Client ${client} ran for more than ${ms} ms of wall-clock time without yielding, so the run was stopped.`, 'wallOverrun', { client: who(client), ms: String(ms) }),
  cpuTotal: (client: number, ms: number) => said(`Client ${client} used more than ${ms} ms of CPU, so the run was stopped.`, 'cpuTotal', { client: who(client), ms: String(ms) }),
  storeInFlight: (client: number, n: number) =>
    said(
      `Client ${client} had more than ${n} lab.store calls waiting for an answer at once (a store call in a loop without await?), so it was stopped.`,
      'storeInFlight',
      { client: who(client), n: String(n) },
    ),
  connectionsPerClient: (client: number, n: number) =>
    said(
      `Client ${client} has ${n} connections open, the lab's limit per client: close one (quit()/disconnect()) before opening another.`,
      'connectionsPerClient',
      { client: who(client), n: String(n) },
    ),
  connectionsPerRun: (client: number, n: number) =>
    said(
      `Client ${client} could not open a connection: the run's clients have ${n} connections open, the lab's limit per run. Close one (quit()/disconnect()) before opening another.`,
      'connectionsPerRun',
      { client: who(client), n: String(n) },
    ),
  serverReserve: (client: number) =>
    said(
      `Client ${client} could not open a connection: the sandbox process that runs it has reached the connections it may hold for all the programs it runs. Close connections you do not need (quit()/disconnect()), or try again in a moment.`,
      'serverReserve',
      { client: who(client) },
    ),
  connectOptionClamped: (client: number, option: string, value: number, max: number) =>
    said(
      `Client ${client} asked for a ${option} of ${value} ms; the lab allows at most ${max} ms, so its connections use ${max} ms.`,
      'connectOptionClamped',
      { client: who(client), option, value: String(value), max: String(max) },
    ),
  clientWallClock: (client: number, ms: number) => said(`Client ${client} reached the wall-clock limit of ${ms} ms.`, 'clientWallClock', { client: who(client), ms: String(ms) }),
  atLine: (limit: Said, line: number) => said(`${limit.message} It was at line ${line}.`, 'atLine', { limit: { words: limit.words }, line: String(line) }),
  internalError: (error: string) => said(`Internal error in the sandbox: ${error}`, 'internalError', { error }),
};

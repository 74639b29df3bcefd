/**
 * The door to shared runs: `/api/runs` on the lab server's port (the wire: lib/shared-runs.ts). Whose a run is
 * comes from the browser identity cookie (server/realtime/browser-identity.ts); sharing and deleting are taken only
 * from this site's pages (the Origin header, as for sockets). Every refusal is a Result failure in words, and
 * changes nothing; nothing a request sends can crash the process.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { refusal } from '@/lib/refusal-words';
import { LabOperationError, ok, toFailure, type Result } from '@/lib/result';
import { runFileEnvelopeSchema } from '@/lib/run-file-format';
import { SHARED_RUNS_API, sharedRunIdSchema, sharedRunPath, type SharedRunCreated } from '@/lib/shared-runs';
import { refuse } from '../ops/refusals';
import type { BrowserIdentities } from '../realtime/browser-identity';
import { originAllowed } from '../realtime/origin';
import type { ShareRefusal, SharedRunBounds } from './shared-runs';
import type { Store } from './store';

export interface SharedRunRoutesOptions {
  store: Store | null;
  identities: BrowserIdentities;
  allowedOrigins: string[];
  bounds: SharedRunBounds;
}

const MB = 2 ** 20;
const STATUS: Record<string, number> = { 'invalid-input': 400, forbidden: 403, 'not-found': 404, 'lab-full': 413, internal: 500 };

function send(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' }).end(body);
}

function answer<T>(res: ServerResponse, result: Result<T>, status = 200): void {
  send(res, result.ok ? status : (STATUS[result.error.code] ?? 409), JSON.stringify(result));
}

class BodyTooBig extends Error {
  constructor(readonly bytes: number) {
    super(`body past ${bytes} bytes`);
  }
}

/** The request's body, refused as soon as it passes `limit` bytes (a declared length past it is refused unread). */
function readBody(req: IncomingMessage, limit: number): Promise<string> {
  return new Promise((resolve, reject) => {
    // What is past the limit is read and dropped, not kept, so the refusal still reaches the page.
    const drop = (bytes: number) => {
      req.removeAllListeners('data');
      req.resume();
      reject(new BodyTooBig(bytes));
    };
    const declared = Number(req.headers['content-length'] ?? NaN);
    if (declared > limit) return drop(declared);
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) return drop(size);
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

const megabytes = (bytes: number): number => Math.ceil(bytes / MB);

function refusalOf(why: ShareRefusal, browser: string): LabOperationError {
  switch (why.kind) {
    case 'too-big':
      return refuse('shared-run-bounds', { browser }, refusal('sharedRuns.tooBig', { size: megabytes(why.bytes), limit: megabytes(why.limit) }));
    case 'owner-runs':
      return refuse('shared-run-bounds', { browser }, refusal('sharedRuns.perBrowserRuns', { limit: why.limit }));
    case 'owner-bytes':
      return refuse('shared-run-bounds', { browser }, refusal('sharedRuns.perBrowserBytes', { used: megabytes(why.bytes), limit: megabytes(why.limit) }));
    case 'total-bytes':
      return refuse('shared-run-bounds', { browser }, refusal('sharedRuns.total'));
  }
}

/** Returns a handler that serves `/api/runs…` and says false for any other request. */
export function sharedRunRoutes(options: SharedRunRoutesOptions): (req: IncomingMessage, res: ServerResponse) => boolean {
  const { store, identities, bounds } = options;

  /** Whose request it is; sharing and deleting also need this site's page. */
  const owner = (req: IncomingMessage, changes: boolean): string => {
    if (changes && !(req.headers.origin !== undefined && originAllowed(req, options.allowedOrigins)))
      throw refuse('origin', { detail: { origin: String(req.headers.origin) } }, refusal('sharedRuns.origin'));
    const browser = identities.fromCookieHeader(req.headers.cookie);
    if (!browser) throw refuse('identity-required', {}, refusal('identity.required'));
    return browser;
  };

  const theStore = (): Store => {
    if (!store) throw refuse('no-store', {}, refusal('sharedRuns.noStore'));
    return store;
  };

  const idOf = (raw: string): string => {
    // Not decoded: an id is base64url, so anything escaped is not one.
    const parsed = sharedRunIdSchema.safeParse(raw);
    if (!parsed.success) throw refuse('invalid-input', {}, refusal('sharedRuns.badId'));
    return parsed.data;
  };

  async function share(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const browser = owner(req, true);
    const shared = theStore().sharedRuns;
    let body: string;
    try {
      body = await readBody(req, bounds.maxRunBytes);
    } catch (error) {
      if (error instanceof BodyTooBig) throw refusalOf({ kind: 'too-big', bytes: error.bytes, limit: bounds.maxRunBytes }, browser);
      throw error;
    }
    let json: unknown;
    try {
      json = JSON.parse(body);
    } catch {
      throw refuse('invalid-input', { browser }, refusal('sharedRuns.notARun'));
    }
    if (!runFileEnvelopeSchema.safeParse(json).success) throw refuse('invalid-input', { browser }, refusal('sharedRuns.notARun'));
    const result = await shared.share(browser, body);
    if (!result.ok) throw refusalOf(result.refusal, browser);
    answer(res, ok<SharedRunCreated>({ id: result.id, path: sharedRunPath(result.id) }), 201);
  }

  async function fetchRun(req: IncomingMessage, res: ServerResponse, rawId: string): Promise<void> {
    const id = idOf(rawId);
    const run = await theStore().sharedRuns.get(id);
    if (!run) throw new LabOperationError('not-found', refusal('sharedRuns.gone'));
    // A viewer without an identity (a fresh browser that never opened a lab) may read; it just is not the owner.
    const yours = identities.fromCookieHeader(req.headers.cookie) === run.owner;
    // The body as it was kept, not parsed and written again: the page parses it once.
    send(res, 200, `{"ok":true,"value":{"yours":${yours},"run":${run.body}}}`);
  }

  async function remove(req: IncomingMessage, res: ServerResponse, rawId: string): Promise<void> {
    const id = idOf(rawId);
    const browser = owner(req, true);
    const done = await theStore().sharedRuns.delete(id, browser);
    if (done === 'not-found') throw new LabOperationError('not-found', refusal('sharedRuns.gone'));
    if (done === 'not-yours') throw refuse('shared-run-not-yours', { browser }, refusal('sharedRuns.notYours'));
    answer(res, ok({ deleted: true as const }));
  }

  return (req, res) => {
    // The path only, without parsing the whole URL (a request target that is not a URL must not throw here).
    const pathname = (req.url ?? '/').split('?')[0] ?? '/';
    if (pathname !== SHARED_RUNS_API && !pathname.startsWith(`${SHARED_RUNS_API}/`)) return false;
    const rest = pathname.slice(SHARED_RUNS_API.length + 1);
    const work =
      req.method === 'POST' && rest === ''
        ? share(req, res)
        : req.method === 'GET' && rest !== ''
          ? fetchRun(req, res, rest)
          : req.method === 'DELETE' && rest !== ''
            ? remove(req, res, rest)
            : Promise.reject(new LabOperationError('invalid-input', `${req.method} ${SHARED_RUNS_API}${rest ? '/…' : ''} is not a shared-run request`));
    work.catch((error: unknown) => {
      if (!(error instanceof LabOperationError)) console.error('[store] shared run request failed:', error);
      if (res.headersSent) return void res.end();
      answer(res, toFailure(error));
    });
    return true;
  };
}

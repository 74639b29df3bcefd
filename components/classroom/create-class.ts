/**
 * Starting a class, outside React: the browser's one socket client
 * (LabConnection, opened once, with the browser's identity bought first if
 * it has none) sends `classroom:create`; on success the tab keeps who it is
 * in the class and the browser trades the instructor's ticket for its
 * HttpOnly cookie. The page only renders the answer.
 */
import { io } from 'socket.io-client';
import type { ClassroomCreateInput } from '@/lib/classroom';
import type { LabError } from '@/lib/result';
import { LabConnection, type LabSocket } from '@/components/lab/lab-connection';
import { ensureBrowserIdentity } from '@/components/lab/browser-identity';
import { saveCredentials, type CredentialStorage } from './classroom-state';
import { postTicket } from './classroom-client';

/** How long the server may take to create the class (it starts the class's lab). */
const CREATE_TIMEOUT_MS = 30_000;

export type CreateClassAnswer =
  /** `remembered`: whether this browser now holds the instructor cookie (if not, the console asks for the token in other tabs). */
  | { ok: true; code: string; remembered: boolean }
  | { ok: false; reason: 'unreachable'; detail: string }
  | { ok: false; reason: 'slow' }
  | { ok: false; reason: 'forbidden' }
  | { ok: false; reason: 'refused'; error: LabError };

export interface CreateClassDeps {
  /** One attempt, no reconnection: a class is created once or the page says why not. */
  openSocket: () => LabSocket;
  identity: () => Promise<void>;
  storage: CredentialStorage | null;
  rememberInstructor: (ticket: string) => Promise<void>;
  timeoutMs?: number;
}

const pageDeps = (storage: CredentialStorage | null): CreateClassDeps => ({
  openSocket: () => io({ autoConnect: false, reconnection: false }),
  identity: async () => void (await ensureBrowserIdentity()),
  storage,
  rememberInstructor: postTicket,
});

export async function createClass(input: ClassroomCreateInput, storage: CredentialStorage | null, deps: CreateClassDeps = pageDeps(storage)): Promise<CreateClassAnswer> {
  const connection = new LabConnection(deps.openSocket, deps.identity);
  try {
    const reached = await new Promise<Exclude<CreateClassAnswer, { ok: true }> | null>((resolve) => {
      connection.start({
        connected: () => resolve(null),
        lost: () => undefined,
        // An identity bought and the connection tried again is `retrying`; anything else is the answer.
        refused: (message, retrying) => {
          if (!retrying) resolve({ ok: false, reason: 'unreachable', detail: message });
        },
        push: () => undefined,
        error: () => undefined,
      });
    });
    if (reached) return reached;
    const sent = await connection.request('classroom:create', input, deps.timeoutMs ?? CREATE_TIMEOUT_MS);
    if (!sent.answered) return sent.why === 'timeout' ? { ok: false, reason: 'slow' } : { ok: false, reason: 'unreachable', detail: 'the connection closed before the server answered' };
    const result = sent.result;
    if (!result.ok) return result.error.code === 'forbidden' ? { ok: false, reason: 'forbidden' } : { ok: false, reason: 'refused', error: result.error };
    const { code, instructorTicket: ticket } = result.value;
    if (deps.storage) saveCredentials(deps.storage, { role: 'instructor', code, token: input.token ?? null });
    // Remembered in this browser before the console opens. If that fails this tab still has its token; the
    // answer says so, and the console of another tab will ask for the token again.
    let remembered = false;
    if (ticket) {
      try {
        await deps.rememberInstructor(ticket);
        remembered = true;
      } catch (e) {
        console.warn('Lock Lab: this browser could not remember the instructor; other tabs will ask for the token', e);
      }
    }
    return { ok: true, code, remembered };
  } finally {
    connection.stop();
  }
}

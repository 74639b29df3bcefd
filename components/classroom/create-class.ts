/**
 * Starting a class, outside React: a short-lived socket (opened with the
 * browser's identity, bought first if the browser has none) sends
 * `classroom:create`; on success the tab keeps who it is in the class and
 * the browser trades the instructor's ticket for its HttpOnly cookie. The
 * page only renders the answer.
 */
import { io } from 'socket.io-client';
import type { ClassroomCreateInput } from '@/lib/classroom';
import type { LabError } from '@/lib/result';
import type { LabSocket } from '@/components/lab/lab-connection';
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
  openSocket: () => LabSocket;
  identity: () => Promise<unknown>;
  storage: CredentialStorage | null;
  rememberInstructor: (ticket: string) => Promise<void>;
  timeoutMs?: number;
}

const pageDeps = (storage: CredentialStorage | null): CreateClassDeps => ({
  openSocket: () => io({ autoConnect: false, reconnection: false }),
  identity: ensureBrowserIdentity,
  storage,
  rememberInstructor: postTicket,
});

export async function createClass(input: ClassroomCreateInput, storage: CredentialStorage | null, deps: CreateClassDeps = pageDeps(storage)): Promise<CreateClassAnswer> {
  try {
    await deps.identity();
  } catch (e) {
    return { ok: false, reason: 'unreachable', detail: e instanceof Error ? e.message : String(e) };
  }
  const socket = deps.openSocket();
  try {
    const answer = await new Promise<Exclude<CreateClassAnswer, { ok: true }> | { ok: true; code: string; ticket: string | undefined }>((resolve) => {
      socket.on('connect_error', (e) => resolve({ ok: false, reason: 'unreachable', detail: e.message }));
      socket.on('connect', () => {
        socket.timeout(deps.timeoutMs ?? CREATE_TIMEOUT_MS).emit('classroom:create', input, (err, result) => {
          if (err) resolve({ ok: false, reason: 'slow' });
          else if (!result.ok) resolve(result.error.code === 'forbidden' ? { ok: false, reason: 'forbidden' } : { ok: false, reason: 'refused', error: result.error });
          else resolve({ ok: true, code: result.value.code, ticket: result.value.instructorTicket });
        });
      });
      socket.connect();
    });
    if (!answer.ok) return answer;
    if (deps.storage) saveCredentials(deps.storage, { role: 'instructor', code: answer.code, token: input.token ?? null });
    // Remembered in this browser before the console opens. If that fails this tab still has its token; the
    // answer says so, and the console of another tab will ask for the token again.
    let remembered = false;
    if (answer.ticket) {
      try {
        await deps.rememberInstructor(answer.ticket);
        remembered = true;
      } catch (e) {
        console.warn('Lock Lab: this browser could not remember the instructor; other tabs will ask for the token', e);
      }
    }
    return { ok: true, code: answer.code, remembered };
  } finally {
    socket.disconnect();
  }
}

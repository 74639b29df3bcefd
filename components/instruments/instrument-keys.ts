/**
 * The instrument panel's keys, pure (tests/unit/instrument-keys.test.ts):
 * 1–5 kill Node 1–5 if it is up (or paused) and restart it if it is down;
 * Shift+1–5 pause Client 1–5 if it runs and resume it if it is paused.
 *
 * Read from `KeyboardEvent.code` (the key's place), not `key`: Shift+1 is "!"
 * on one layout and "1" on another, and a learner presses the same key.
 * Never while typing: in Monaco, an input, a select or anything editable the
 * digit is the learner's text.
 */
import type { NodeView } from '@/lib/cluster';
import type { ClientStatus } from '@/components/clients/client-states';

/** The most nodes and clients the keys reach (the lab's nodes and a run's clients go up to five). */
export const KEYED_TARGETS = 5;

export type InstrumentKey = { kind: 'node'; n: number } | { kind: 'client'; n: number };

export interface KeyPress {
  code: string;
  shiftKey: boolean;
  ctrlKey: boolean;
  altKey: boolean;
  metaKey: boolean;
  repeat?: boolean;
  /** Where the key went: null when it went to the page itself. */
  target: EventTarget | null;
}

/** Where the learner types: Monaco, fields, selects, anything editable. */
export const TYPING_SELECTOR = '.monaco-editor, input, textarea, select, [contenteditable=""], [contenteditable="true"], [role="textbox"], [role="combobox"]';

/** The part of an element this needs (so a test can hand a stand-in). */
interface ElementLike {
  closest(selector: string): unknown;
  isContentEditable?: boolean;
}

/** Whether a key pressed here is the learner typing (an editor, a field, a select, anything editable). */
export function isTyping(target: EventTarget | null): boolean {
  const el = target as Partial<ElementLike> | null;
  if (!el || typeof el.closest !== 'function') return false;
  return el.closest(TYPING_SELECTOR) != null || el.isContentEditable === true;
}

/** The instrument a key press means, or null (another key, a modifier, a held key repeating, typing). */
export function instrumentKey(press: KeyPress): InstrumentKey | null {
  if (press.ctrlKey || press.altKey || press.metaKey || press.repeat) return null;
  const match = /^(?:Digit|Numpad)([1-9])$/.exec(press.code);
  if (!match) return null;
  const n = Number(match[1]);
  if (n > KEYED_TARGETS) return null;
  if (isTyping(press.target)) return null;
  return press.shiftKey ? { kind: 'client', n } : { kind: 'node', n };
}

/** What a node's key does now: kill it unless it is down, restart it when it is down; nothing while a restart is due. */
export function nodeToggle(node: Pick<NodeView, 'id' | 'state' | 'restartDueAt'> | undefined): 'node-kill' | 'node-restart' | null {
  if (!node) return null;
  if (node.state !== 'down') return 'node-kill';
  return node.restartDueAt === null ? 'node-restart' : null;
}

/** What a client's key does now: pause a running client (until resumed), resume a paused or held one (held: let go alone); nothing otherwise. */
export function clientToggle(status: ClientStatus | undefined): 'client-pause' | 'client-resume' | null {
  if (status === 'running') return 'client-pause';
  if (status === 'paused' || status === 'held') return 'client-resume';
  return null;
}

/** The aria-keyshortcuts value of node n's and client n's toggles (null past the keyed ones). */
export const nodeShortcut = (n: number): string | undefined => (n >= 1 && n <= KEYED_TARGETS ? String(n) : undefined);
export const clientShortcut = (n: number): string | undefined => (n >= 1 && n <= KEYED_TARGETS ? `Shift+${n}` : undefined);

import { describe, expect, it } from 'vitest';
import { clientShortcut, clientToggle, instrumentKey, isTyping, nodeShortcut, nodeToggle, type KeyPress } from '@/components/instruments/instrument-keys';

/** A stand-in for an element: `inside` lists the selectors it sits in (its own tag among them). */
const element = (inside: string[], isContentEditable = false) => ({
  isContentEditable,
  closest: (selector: string) => (selector.split(',').some((s) => inside.includes(s.trim())) ? {} : null),
}) as unknown as EventTarget;
const page = element(['body']);

const press = (code: string, extra: Partial<KeyPress> = {}): KeyPress => ({ code, shiftKey: false, ctrlKey: false, altKey: false, metaKey: false, target: page, ...extra });

describe('instrument keys', () => {
  it('1–5 are nodes, Shift+1–5 clients, by the key pressed whatever the layout prints', () => {
    expect(instrumentKey(press('Digit1'))).toEqual({ kind: 'node', n: 1 });
    expect(instrumentKey(press('Numpad5'))).toEqual({ kind: 'node', n: 5 });
    expect(instrumentKey(press('Digit3', { shiftKey: true }))).toEqual({ kind: 'client', n: 3 });
    expect(instrumentKey(press('Digit6'))).toBeNull();
    expect(instrumentKey(press('Digit0'))).toBeNull();
    expect(instrumentKey(press('KeyA'))).toBeNull();
  });

  it('never with Ctrl, Alt or Meta, nor a held key repeating', () => {
    expect(instrumentKey(press('Digit1', { ctrlKey: true }))).toBeNull();
    expect(instrumentKey(press('Digit1', { altKey: true }))).toBeNull();
    expect(instrumentKey(press('Digit1', { metaKey: true }))).toBeNull();
    expect(instrumentKey(press('Digit1', { repeat: true }))).toBeNull();
  });

  it('never while typing: the editor, a field, a select, anything editable', () => {
    const inner = element(['textarea', '.monaco-editor']);
    const editor = element(['.monaco-editor']);
    const input = element(['input']);
    const select = element(['select']);
    const editable = element(['div'], true);
    const button = element(['button']);
    for (const target of [inner, editor, input, select, editable]) {
      expect(isTyping(target)).toBe(true);
      expect(instrumentKey(press('Digit1', { target }))).toBeNull();
    }
    expect(instrumentKey(press('Digit1', { target: button }))).toEqual({ kind: 'node', n: 1 });
    expect(instrumentKey(press('Digit1', { target: null }))).toEqual({ kind: 'node', n: 1 });
  });

  it('toggles: kill a node unless it is down, restart a down one unless a restart is due', () => {
    expect(nodeToggle({ id: 1, state: 'up', restartDueAt: null })).toBe('node-kill');
    expect(nodeToggle({ id: 1, state: 'paused', restartDueAt: null })).toBe('node-kill');
    expect(nodeToggle({ id: 1, state: 'down', restartDueAt: null })).toBe('node-restart');
    expect(nodeToggle({ id: 1, state: 'down', restartDueAt: 5 })).toBeNull();
    expect(nodeToggle(undefined)).toBeNull();
    expect(clientToggle('running')).toBe('client-pause');
    expect(clientToggle('paused')).toBe('client-resume');
    // Frozen at the breakpoint: its key lets it go alone, as its Resume button does.
    expect(clientToggle('held')).toBe('client-resume');
    for (const s of ['waiting', 'exited', 'crashed', 'failed', undefined] as const) expect(clientToggle(s)).toBeNull();
  });

  it('announces each key on its button', () => {
    expect(nodeShortcut(2)).toBe('2');
    expect(clientShortcut(4)).toBe('Shift+4');
    expect(nodeShortcut(6)).toBeUndefined();
  });
});

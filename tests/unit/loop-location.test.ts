/** Finding the loop a client spun in from QuickJS's stale position (server/sandbox/loop-location.ts says why it is stale). */
import { describe, expect, it } from 'vitest';
import { locateSpinningLoop } from '@/server/sandbox/loop-location';
import { transpileLearnerCode } from '@/server/sandbox/transpile';

function script(code: string): string {
  const compiled = transpileLearnerCode(code, 'program.ts');
  if (!compiled.ok) throw new Error(compiled.diagnostic.message);
  return compiled.script;
}

describe('locateSpinningLoop', () => {
  const code = ['let n = 0;', 'console.log(n);', 'function spin() {', '  let i = 0;', '  while (i >= 0) { i++; }', '}', 'for (;;) {', '  n++;', '}'].join('\n');

  it('takes the first loop of the same function after the position (the call before the loop)', () => {
    expect(locateSpinningLoop(script(code), { line: 2, column: 12 })?.line).toBe(7);
  });

  it('takes the loop of the function the position is in (its start), not a loop of the caller', () => {
    expect(locateSpinningLoop(script(code), { line: 3, column: 10 })?.line).toBe(5);
  });

  it('takes the loop holding the position (a call inside it)', () => {
    const inside = ['import lab from "lab";', 'while (lab.client > 0) {', '  Math.random();', '}'].join('\n');
    expect(locateSpinningLoop(script(inside), { line: 3, column: 14 })?.line).toBe(2);
  });

  it('without a position, names the one loop whose condition cannot end it, and nothing when that is not clear', () => {
    expect(locateSpinningLoop(script(code), null)?.line).toBe(7);
    expect(locateSpinningLoop(script('while (true) {}\nfor (;;) {}'), null)).toBeNull();
  });
});

/**
 * A fault is its catalogue entry (lib/faults/catalogue.ts): every field every entry must state, its words under
 * its key in each language, and its op named only where it is declared and carried out.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { FAULT_OPS, FAULTS, type FaultOp, type FaultSpec } from '@/lib/faults/catalogue';
import type { FaultInput } from '@/lib/faults/inputs';
import { catalogueOf } from '@/messages/read-catalogue';

/** The fields a FaultSpec requires (optional ones, needsProgram and needsReplica, are flags). */
const REQUIRED = ['event', 'reply', 'key', 'recovery', 'lasting', 'nodeState', 'undoneBy', 'undoes', 'magnitude', 'clockArg', 'told', 'values'] as const;

describe('the fault catalogue', () => {
  it('has an entry for every op, and every entry states every field', () => {
    expect(Object.keys(FAULTS).sort()).toEqual([...FAULT_OPS].sort());
    for (const op of FAULT_OPS) for (const field of REQUIRED) expect(FAULTS[op], `${op}.${field}`).toHaveProperty(field);
  });

  it('does not compile a table that misses an op, or an entry that misses a field', () => {
    type Table = { [K in FaultOp]: FaultSpec<FaultInput<K>> };
    expectTypeOf(FAULTS).toMatchTypeOf<Table>();
    const { 'node-kill': _dropped, ...withoutKill } = FAULTS;
    // @ts-expect-error a table without node-kill is not the catalogue
    const missingOp: Table = withoutKill;
    const { lasting: _lasting, ...withoutLasting } = FAULTS['node-kill'];
    // @ts-expect-error an entry that does not say whether it lasts is not a FaultSpec
    const missingField: FaultSpec<FaultInput<'node-kill'>> = withoutLasting;
    expect([missingOp, missingField]).toHaveLength(2);
  });

  it.each(['en', 'ar', 'nb'] as const)('has the words of every fault under its key in %s', (locale) => {
    const catalogue = catalogueOf(locale) as unknown as Record<string, Record<string, Record<string, unknown>>>;
    const lab = catalogue.lab!.op as Record<string, Record<string, unknown>>;
    const shape = catalogue.timeline!.shape!.op as Record<string, unknown>;
    for (const op of FAULT_OPS) {
      const { key } = FAULTS[op];
      expect(catalogue.runNotes!.step![key], `runNotes.step.${key}`).toEqual(expect.any(String));
      expect(catalogue.refusals!.command![key], `refusals.command.${key}`).toEqual(expect.any(String));
      expect(lab[key]?.attempt, `lab.op.${key}.attempt`).toEqual(expect.any(String));
      expect(lab[key]?.did, `lab.op.${key}.did`).toEqual(expect.any(String));
      expect(shape[key], `timeline.shape.op.${key}`).toEqual(expect.any(String));
    }
  });

  it('is the only place that knows a fault: its op is named only where it is declared and carried out', () => {
    const root = path.resolve(__dirname, '../..');
    const sources: string[] = [];
    const walk = (dir: string) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(full);
        else if (/\.(ts|tsx)$/.test(entry.name)) sources.push(full);
      }
    };
    for (const dir of ['lib', 'components', 'server', 'app']) walk(path.join(root, dir));
    const naming = sources.filter((file) => fs.readFileSync(file, 'utf8').includes("'node-clock-jump'")).map((file) => path.relative(root, file));
    expect(naming.sort()).toEqual(['lib/faults/catalogue.ts', 'lib/faults/inputs.ts', 'server/nemesis/nemesis.ts', 'server/nemesis/operations.ts']);
  });
});

/**
 * A run's end in words when there is no ordinary verdict to give: a program that did not compile did not
 * run (never "unknown", nothing to export), and a run ended early says its outcome could no longer change.
 */
import { renderToStaticMarkup } from 'react-dom/server';
import { withIntl } from './helpers/intl';
import { describe, expect, it } from 'vitest';
import { check } from '@/lib/checker';
import type { RunEnded, RunInfo } from '@/lib/run';
import { emptyRunData, hasExportableRun, reduceRunEnded, reduceRunStarted } from '@/components/lab/run-state';
import { VerdictView } from '@/components/verdict/verdict-view';

const info: RunInfo = { runId: 'run-1', clients: 3, scenario: null, seed: 1, startedAt: 5_000 };
const syntaxError: RunEnded = {
  runId: 'run-1',
  outcome: { runId: 'run-1', status: 'syntax-error', error: 'SyntaxError: Unexpected token (line 3)', clients: [], durationMs: 2 },
  verdict: check([]),
};

describe('a program that did not compile', () => {
  it('is said to have not run, with the compiler’s words and line, and no verdict', () => {
    const html = renderToStaticMarkup(withIntl(<VerdictView verdict={check([])} running={false} outcome={syntaxError.outcome} />));
    expect(html).toContain('Your program did not run');
    expect(html).toContain('SyntaxError: Unexpected token (line 3).');
    expect(html).not.toMatch(/unknown|not proven|either way/i);
  });

  it('is also a program that did not run when the engine refused it in every client', () => {
    const outcome = { runId: 'run-1', status: 'completed' as const, durationMs: 40, clients: [1, 2].map((client) => ({ client, status: 'error' as const, error: "SyntaxError: unexpected token in expression: ')' (line 2)" })) };
    expect(renderToStaticMarkup(withIntl(<VerdictView verdict={check([])} running={false} outcome={outcome} />))).toContain('Your program did not run');
  });

  it('leaves the tab with no verdict and nothing to export', () => {
    const run = reduceRunEnded(reduceRunStarted(emptyRunData(), info), syntaxError);
    expect(run.verdict).toBeNull();
    expect(hasExportableRun(run)).toBe(false);
    const ran = reduceRunEnded(reduceRunStarted(emptyRunData(), info), { ...syntaxError, outcome: { ...syntaxError.outcome, status: 'completed', error: undefined } });
    expect(ran.verdict).not.toBeNull();
    expect(hasExportableRun(ran)).toBe(true);
  });
});

describe('a run ended early', () => {
  it('says its outcome could no longer change, and why', () => {
    const outcome = { runId: 'run-1', status: 'decided' as const, error: "Client 1 crashed holding 'lock:x', whose key has no TTL", clients: [], durationMs: 2_400 };
    const html = renderToStaticMarkup(withIntl(<VerdictView verdict={check([])} running={false} outcome={outcome} />));
    expect(html).toContain('The run was ended early, after 2.4 s: its outcome could no longer change (Client 1 crashed holding');
  });
});

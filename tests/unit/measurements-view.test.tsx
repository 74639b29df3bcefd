/** One run's figures in words: each percentile named with its value, the histogram named by its figures, and a "Show as table" toggle. */
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { measureRun } from '@/lib/measurements';
import { RunFigures } from '@/components/measurements/run-figures';
import { history } from './helpers/history-builder';
import { withIntl } from './helpers/intl';

describe('RunFigures', () => {
  it('names every figure in text and gives the histogram an accessible name and a table toggle', () => {
    const b = history();
    for (let i = 0; i < 100; i++) b.at(i * 10).attempt(1).at(i * 10 + (i < 98 ? 3.2 : 14.1)).acquired(1).at(i * 10 + 5).released(1);
    const m = measureRun(b.build(), { origin: 0, expectedExecutions: 1 });
    const html = renderToStaticMarkup(withIntl(<RunFigures title="This run" about="Run 1: your code, no scenario" m={m} />));
    expect(html).toContain('<dt>P50 acquire</dt><dd data-testid="figure-p50">3.20 ms</dd>');
    expect(html).toContain('<dt>P99 acquire</dt><dd data-testid="figure-p99">14.1 ms</dd>');
    expect(html).toContain('<dt>Duplicates</dt><dd data-testid="figure-duplicates">0</dd>');
    expect(html).toContain('role="img" aria-label="Acquire latency histogram. P50 acquire 3.20 ms, P95 3.20 ms, P99 14.1 ms, max 14.1 ms, over 100 answered attempts."');
    expect(html).toContain('aria-pressed="false"');
    expect(html).toContain('>Show as table</button>');
  });

  it('says so when no acquire was answered, and draws no chart', () => {
    const html = renderToStaticMarkup(withIntl(<RunFigures title="This run" about="Run 1" m={measureRun([])} />));
    expect(html).toContain('No acquire was answered in this run');
    expect(html).not.toContain('role="img"');
  });
});

/**
 * The scenario's lines under "Timeline as text" (and on the canvas) are said from data: the runner records each
 * step's words with its English, and the timeline writes them in the page's language.
 */
import { createTranslator } from 'next-intl';
import { describe, expect, it } from 'vitest';
import { english } from '@/lib/checker/said';
import type { HistoryEvent } from '@/lib/history';
import { scenarioSchema } from '@/lib/scenario';
import { scheduledStepWords } from '@/lib/scenario-words';
import { render, words, type Words } from '@/lib/words';
import { layoutTimeline } from '@/components/timeline/layout';
import { layoutWords } from '@/components/timeline/layout-words';
import { summarizeLayout, type TimelineT } from '@/components/timeline/summary';
import { catalogueOf } from './helpers/intl';

const scenario = scenarioSchema.parse({
  id: 'pauses',
  title: 'Pauses',
  steps: [
    { at: 300, when: { on: 'lock-acquired', client: 1 }, action: 'client-pause', client: 2, durationMs: 8000 },
    { at: 400, action: 'node-kill', node: 3 },
  ],
});
const start = words('runNotes.scenarioStart', { title: scenario.title, seed: String(scenario.seed), steps: 2 });
const lines: Words[] = [start, ...scenario.steps.map((s) => scheduledStepWords(s, s.at))];
const history: HistoryEvent[] = lines.map((w, seq) => ({ seq, t: 100 * seq, type: 'scenario', step: 'x', detail: english(w), detailWords: w }));

function labEvents(locale: 'ar' | 'nb', events = history): string[] {
  const catalogue = catalogueOf(locale);
  const t = createTranslator({ locale, messages: catalogue, namespace: 'timeline' }) as unknown as TimelineT;
  const said = ({ message, words: w }: { message: string; words?: Words | undefined }) => (w ? render(w, locale, catalogue) : message);
  const layout = layoutTimeline(events, { words: layoutWords(t, said) });
  return summarizeLayout(layout, t).labEvents.map((m) => m.label.replace(/[\u2066-\u2069]/g, ''));
}

describe("the scenario's lines on the timeline", () => {
  it('keep their English', () => {
    expect(layoutTimeline(history).markers.map((m) => m.label)).toEqual([
      'scenario: Pauses — random seed 1, 2 steps',
      'scenario: pause Client 2 for 8000 ms (300 ms after Client 1 is granted the lock)',
      'scenario: kill Node 3',
    ]);
  });

  it('read in Norwegian', () => {
    const nb = labEvents('nb');
    expect(nb).toEqual([
      'scenario: Pauses — tilfeldig frø 1, 2 steg',
      expect.stringContaining('pause Klient 2 i 8000 ms (300 ms etter at'),
      'scenario: drepe Node 3',
    ]);
    expect(nb.join(' ')).not.toMatch(/\b(random|seed|Client|after|granted|kill)\b/);
  });

  it('read in Arabic, with the units after the digits', () => {
    const ar = labEvents('ar');
    expect(ar).toHaveLength(3);
    for (const line of ar) expect(line).toMatch(/[\u0600-\u06FF]/);
    expect(ar[1]).toContain('8000 ms');
    expect(ar[1]).toContain('العميل 2');
    expect(ar.join(' ')).not.toMatch(/\b(random|seed|Client|pause|after|granted|kill)\b/);
  });

  it('show a run file from before, which has no words, as it came', () => {
    const old = history.map((e) => ({ ...e, detailWords: undefined })) as HistoryEvent[];
    expect(labEvents('nb', old)[2]).toBe('scenario: kill Node 3');
  });
});

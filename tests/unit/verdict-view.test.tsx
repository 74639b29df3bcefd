/**
 * The verdict in words: the property that failed and its root cause in the headline, held / unknown, the
 * counter-example, the other diagnoses, the facts worth seeing without opening "Checks", and "Show on timeline".
 */
import { renderToStaticMarkup } from 'react-dom/server';
import { withIntl } from './helpers/intl';
import { describe, expect, it } from 'vitest';
import { check } from '@/lib/checker';
import { VerdictView } from '@/components/verdict/verdict-view';
import { history } from './helpers/history-builder';

const overlapping = history().at(0).start(1).start(2).at(100).enter(1).at(150).enter(2).at(300).exit(1).at(350).exit(2).build();
const serial = history().at(0).start(1).start(2).at(100).enter(1).at(200).exit(1).at(250).enter(2).at(300).exit(2).build();

describe('VerdictView', () => {
  it('says violated in words, with the counter-example and a "Show on timeline" button', () => {
    const html = renderToStaticMarkup(withIntl(<VerdictView verdict={check(overlapping)} running={false} onShow={() => undefined} />));
    expect(html).toContain('data-valid="violated"');
    expect(html).toContain('>Safety failed: two clients were in the critical section at once<');
    expect(html).toContain('Counter-example');
    expect(html).toMatch(/Client 2 .*Client 1|Client 1.*Client 2/);
    expect(html).toContain('Show on timeline');
  });

  it('says held in words, with the icon hidden from screen readers', () => {
    const html = renderToStaticMarkup(withIntl(<VerdictView verdict={check(serial)} running={false} />));
    expect(html).toContain('>held<');
    expect(html).toContain('aria-hidden="true">✓');
    expect(html).not.toContain('Counter-example');
  });

  it('says a live verdict is only "so far"', () => {
    const html = renderToStaticMarkup(withIntl(<VerdictView verdict={check(serial, { final: false })} running />));
    expect(html).toContain('so far');
  });

  it('says unknown when nothing could be checked, and invites a run before any verdict', () => {
    expect(renderToStaticMarkup(withIntl(<VerdictView verdict={check([])} running={false} />))).toContain('>unknown<');
    expect(renderToStaticMarkup(withIntl(<VerdictView verdict={null} running={false} />))).toContain('Run your program');
  });

  it('leaves the button out without a timeline to show it on', () => {
    expect(renderToStaticMarkup(withIntl(<VerdictView verdict={check(overlapping)} running={false} />))).not.toContain('Show on timeline');
  });

  it('a holder that crashed with a lock without TTL: the headline says liveness and the no-TTL root cause, never safety', () => {
    const h = history().at(0).start(1).start(2).at(300).redis(1, 1, 'SETNX', ['lock', 'a'], 1).at(310).enter(1).at(812).crash(1);
    for (let t = 900; t <= 4000; t += 250) h.at(t).redis(2, 1, 'SETNX', ['lock', 'b'], 0);
    const html = renderToStaticMarkup(withIntl(<VerdictView verdict={check(h.build(), { livenessBoundMs: 2000 })} running={false} onShow={() => undefined} />));
    expect(html).toContain('data-property="liveness"');
    expect(html).toContain('>Liveness failed: the lock could not be taken for too long, so work stopped<');
    expect(html).toMatch(/data-testid="root-cause" data-kind="lock-without-ttl-never-frees"><p><strong>Root cause: <\/strong>Client 1 crashed at 812 ms holding &#x27;lock&#x27;.*whose key has no TTL/);
    expect(html).toContain('aria-label="Show the root cause on the timeline"');
    expect(html).not.toContain('Safety');
    expect(html).not.toContain('expired');
  });

  it('duplicates: the headline counts them, with the root cause', () => {
    const h = history();
    for (const c of [1, 2, 3, 4, 5]) h.at(c).start(c).at(100 + c).enter(c, 'daily-report').at(400 + c).exit(c, 'daily-report');
    const html = renderToStaticMarkup(withIntl(<VerdictView verdict={check(h.build(), { expectedExecutions: { 'daily-report': 1 } })} running={false} />));
    expect(html).toContain(">Duplicates: job &#x27;daily-report&#x27; ran 5 times, expected once (4 duplicate executions)<");
    expect(html).toContain('data-kind="job-without-lock"');
    // The counter-example shown is the headline's (duplicates), not the overlap that was proven first.
    expect(/data-testid="counter-example">([^<]*)</.exec(html)?.[1]).toMatch(/^Job &#x27;daily-report&#x27; ran 5 times, expected once/);
  });

  it('one diagnosis per cause: a root cause is not repeated under "Also diagnosed"', () => {
    const h = history();
    for (const [c, start] of [[1, 0], [2, 200], [3, 400]] as const) {
      h.at(start).redis(c, 1, 'SET', ['lock', `t${c}`, 'NX', 'PX', '100'], 'OK').at(start + 2).enter(c).at(start + 190).exit(c);
    }
    const html = renderToStaticMarkup(withIntl(<VerdictView verdict={check(h.build())} running={false} />));
    expect(html.match(/TTL 100 ms is shorter/g)).toHaveLength(1);
    expect(html).toContain('(seen 3 times)');
  });

  it('a held run shows that a quorum was unavailable as expected, without opening "Checks"', () => {
    const h = history().at(0).node(1, 'down').node(2, 'down').node(3, 'down');
    for (let t = 100; t <= 3000; t += 200) h.at(t).failed(1, 'lock');
    const html = renderToStaticMarkup(withIntl(<VerdictView verdict={check(h.build(), { nodes: 5, livenessBoundMs: 1000 })} running={false} />));
    expect(html).toContain('>held<');
    const facts = /data-testid="verdict-facts"[^>]*>(.*?)<\/ul>/.exec(html)?.[1] ?? '';
    expect(facts).toContain('unavailable, as expected');
  });
});

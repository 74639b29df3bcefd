/** The verdict in words: held / violated / unknown, the counter-example, diagnoses and "Show on timeline". */
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { check } from '@/lib/checker';
import { VerdictView } from '@/components/verdict/verdict-view';
import { history } from './helpers/history-builder';

const overlapping = history().at(0).start(1).start(2).at(100).enter(1).at(150).enter(2).at(300).exit(1).at(350).exit(2).build();
const serial = history().at(0).start(1).start(2).at(100).enter(1).at(200).exit(1).at(250).enter(2).at(300).exit(2).build();

describe('VerdictView', () => {
  it('says violated in words, with the counter-example and a "Show on timeline" button', () => {
    const html = renderToStaticMarkup(<VerdictView verdict={check(overlapping)} running={false} onShow={() => undefined} />);
    expect(html).toContain('data-valid="violated"');
    expect(html).toContain('>violated<');
    expect(html).toContain('Counter-example');
    expect(html).toMatch(/Client 2 .*Client 1|Client 1.*Client 2/);
    expect(html).toContain('Show on timeline');
  });

  it('says held in words, with the icon hidden from screen readers', () => {
    const html = renderToStaticMarkup(<VerdictView verdict={check(serial)} running={false} />);
    expect(html).toContain('>held<');
    expect(html).toContain('aria-hidden="true">✓');
    expect(html).not.toContain('Counter-example');
  });

  it('says a live verdict is only "so far"', () => {
    const html = renderToStaticMarkup(<VerdictView verdict={check(serial, { final: false })} running />);
    expect(html).toContain('so far');
  });

  it('says unknown when nothing could be checked, and invites a run before any verdict', () => {
    expect(renderToStaticMarkup(<VerdictView verdict={check([])} running={false} />)).toContain('>unknown<');
    expect(renderToStaticMarkup(<VerdictView verdict={null} running={false} />)).toContain('Run your program');
  });

  it('leaves the button out without a timeline to show it on', () => {
    expect(renderToStaticMarkup(<VerdictView verdict={check(overlapping)} running={false} />)).not.toContain('Show on timeline');
  });
});

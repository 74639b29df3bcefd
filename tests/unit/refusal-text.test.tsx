/**
 * A refused command as the page shows it: in the page's language when the server sent words, and the server's
 * English message as it came when it did not (an older server, a zod issue, an error of the environment).
 */
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { CommandErrorText } from '@/components/lab/lab-status';
import { commandName } from '@/components/lab/socket-client';
import { faultCommandWords } from '@/lib/faults/command-words';
import { refusal } from '@/lib/refusal-words';
import { withIntl } from './helpers/intl';

const strip = (html: string) => html.replace(/<[^>]+>/g, '').replace(/[\u2066-\u2069]/g, '');

const alreadyDown = refusal('node.alreadyDown', { node: { node: 3 } });
const killed = { command: 'Kill Node 3', commandWords: faultCommandWords('node-kill', { node: 3 }), code: 'conflict' as const, message: alreadyDown.message, words: alreadyDown.words };

describe('a refused command', () => {
  it.each([
    ['en', 'Kill Node 3 failed: Node 3 is already down'],
    ['ar', 'اقتل العقدة 3'],
    ['nb', 'Drep Node 3 feilet: Node 3 er allerede nede'],
  ] as const)('in %s names the command and the refusal in the language', (locale, expected) => {
    const text = strip(renderToStaticMarkup(withIntl(<CommandErrorText error={killed} />, locale)));
    expect(text).toContain(expected);
    if (locale === 'ar') expect(text).toContain('العقدة 3 متوقفة بالفعل');
  });

  it('shows the English message as it came when there are no words', () => {
    const old = { command: 'Run', commandWords: commandName('run').words, code: 'internal' as const, message: 'The sandbox worker failed: boom' };
    expect(strip(renderToStaticMarkup(withIntl(<CommandErrorText error={old} />, 'ar')))).toContain('The sandbox worker failed: boom');
    expect(strip(renderToStaticMarkup(withIntl(<CommandErrorText error={old} />, 'ar')))).toContain('شغّل');
  });

  it('falls back to English words a page catalogue lacks (a newer server)', () => {
    const newer = { ...killed, words: { key: 'refusals.node.somethingNew', values: {} } };
    expect(strip(renderToStaticMarkup(withIntl(<CommandErrorText error={newer} />, 'nb')))).toContain('Node 3 is already down');
  });
});

describe('a refused fault in the recent events', () => {
  it("gives the server's reason in the page's language when it came with words", async () => {
    const { recentLines } = await import('@/components/lab/history-words');
    const { createTranslator } = await import('next-intl');
    const { catalogueOf } = await import('./helpers/intl');
    const { render } = await import('@/lib/words');
    const messages = catalogueOf('nb');
    const t = createTranslator({ locale: 'nb', messages, namespace: 'lab' }) as never;
    const said = ({ message, words }: { message: string; words?: import('@/lib/words').Words | undefined }) => (words ? render(words, 'nb', messages) : message);
    const refused = {
      type: 'nemesis' as const, seq: 1, t: 10, op: 'node-kill' as const, phase: 'fail' as const, target: 'Node 3', node: 3, args: {},
      detail: alreadyDown.message, detailWords: alreadyDown.words,
    };
    const [line] = recentLines([refused], 5, t, (ms) => `${ms} ms`, said);
    expect(line?.text).toContain('Node 3 er allerede nede');
    // Without words (a run file from before), the English reason as it came.
    const [old] = recentLines([{ ...refused, detailWords: undefined }], 5, t, (ms) => `${ms} ms`, said);
    expect(old?.text).toContain('Node 3 is already down');
  });
});

import { renderToStaticMarkup } from 'react-dom/server';
import { withIntl } from './helpers/intl';
import { describe, expect, it } from 'vitest';
import { BusyRunNote } from '@/components/verdict/busy-run-note';
import { DISTURBED_CPU_WAIT_MS } from '@/lib/run';

describe('BusyRunNote', () => {
  it('says the server was busy, and how long the run waited for a CPU, from the disturbance limit up', () => {
    const html = renderToStaticMarkup(withIntl(<BusyRunNote cpuWaitMs={1_400} />));
    expect(html).toContain('The server was busy during this run');
    expect(html).toContain('waited up to 1.4 s for a CPU');
    expect(renderToStaticMarkup(withIntl(<BusyRunNote cpuWaitMs={DISTURBED_CPU_WAIT_MS} />))).toContain('verdict-busy');
  });

  it('says nothing for an undisturbed run, or a figure that is not a number', () => {
    expect(renderToStaticMarkup(withIntl(<BusyRunNote cpuWaitMs={DISTURBED_CPU_WAIT_MS - 1} />))).toBe('');
    expect(renderToStaticMarkup(withIntl(<BusyRunNote cpuWaitMs={Number.NaN} />))).toBe('');
    // From an opened run file, which anyone can edit.
    expect(renderToStaticMarkup(withIntl(<BusyRunNote cpuWaitMs="5000" />))).toBe('');
  });
});

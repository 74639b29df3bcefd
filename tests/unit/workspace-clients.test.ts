/** Client states and console lines folded from a run's history. */
import { describe, expect, it } from 'vitest';
import { clientStatuses, consoleLines } from '@/components/clients/client-states';
import { history } from './helpers/history-builder';

describe('clientStatuses', () => {
  it('follows start, pause, resume, crash and exit', () => {
    const h = history().start(1).start(2).start(3).at(10).pause(1).at(20).crash(2).at(30).client(3, 'exit').build();
    expect(clientStatuses(h, 4)).toEqual(['paused', 'crashed', 'exited', 'waiting']);
    expect(clientStatuses([...h, ...history().at(40).resume(1).build()], 4)[0]).toBe('running');
  });

  it('a resume does not bring a crashed client back', () => {
    const h = history().start(1).crash(1).resume(1).build();
    expect(clientStatuses(h, 1)).toEqual(['crashed']);
  });
});

describe('consoleLines', () => {
  it('lists output and failures oldest first, per client if asked, newest kept', () => {
    const h = history().log(1, 'one').log(2, 'two').crash(2).log(1, 'three').build();
    expect(consoleLines(h).map((l) => `${l.client}:${l.text}`)).toEqual(['1:one', '2:two', '2:crashed', '1:three']);
    expect(consoleLines(h, 500, 1).map((l) => l.text)).toEqual(['one', 'three']);
    expect(consoleLines(h, 2).map((l) => l.text)).toEqual(['crashed', 'three']);
  });
});

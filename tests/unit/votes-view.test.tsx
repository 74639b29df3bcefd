/**
 * The timeline area for a saved Redlock run, rendered: it offers the vote
 * view, shows the two majorities and the shared node in words and in its
 * table, and follows the time-travel cursor (the store's).
 */
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { createLabStore } from '@/components/lab/lab-store';
import { LabViewProvider } from '@/components/lab/lab-provider';
import { LabSocketClient } from '@/components/lab/socket-client';
import type { RecordedRun } from '@/components/lab/run-state';
import { TimelineArea } from '@/components/timeline/timeline-area';
import { history } from './helpers/history-builder';
import { withIntl } from './helpers/intl';
import { restartEmpty } from './helpers/votes-histories';

function savedRun(events = restartEmpty().build()): RecordedRun {
  return { format: 'lock-lab-run', version: 1, exportedAt: '2026-12-05T18:00:00.000Z', lesson: 'redlock', code: '', scenario: null, checker: null, info: null, history: events, verdict: null, ended: null };
}

function render(setUp: (store: ReturnType<typeof createLabStore>) => void): string {
  const store = createLabStore();
  setUp(store);
  const client = new LabSocketClient({ store, storage: null });
  // Server rendering reads a store's initial state: hand it the state after the set-up.
  const shown = { ...store, getInitialState: () => store.getState() };
  return renderToStaticMarkup(
    withIntl(
      <LabViewProvider store={shown} client={client}>
        <TimelineArea defaultClients={2} />
      </LabViewProvider>,
    ),
  );
}

describe('the vote view', () => {
  it('shows a saved split-brain run’s two majorities and the node that voted for both', () => {
    const html = render((store) => {
      store.getState().actions.openReplay(savedRun(), null);
      store.getState().actions.setTimelineMode('votes');
    });
    expect(html).toContain('aria-label="Timeline view"');
    expect(html).toMatch(/aria-pressed="true"[^>]*>Votes per node/);
    expect(html).toContain('Who voted for whom');
    expect(html).toContain('Client 1 held Nodes 1, 2, 3; Client 2 held Nodes 3, 4, 5 — Node 3 voted for both (it restarted empty and forgot its vote for Client 1).');
    expect(html.match(/OK \(voted for both\)/g)).toHaveLength(2);
    expect(html).toContain('data-testid="votes-grid"');
  });

  it('follows the cursor: before Client 2 votes, one majority and no shared node', () => {
    const html = render((store) => {
      store.getState().actions.openReplay(savedRun(), null);
      store.getState().actions.setTimelineMode('votes');
      store.getState().actions.setCursor(300);
    });
    expect(html).toContain('At 300 ms: Client 1 holds Nodes 1, 2, 3 (3 of 5, a majority).');
    expect(html).not.toContain('voted for both');
    expect(html).toContain('Up to 300 ms, no two clients held the lock at once.');
  });

  it('offers no vote view for a single node’s lock: the clients’ timeline', () => {
    const single = history().at(0).redis(1, 1, 'set', ['lock', 'a', 'PX', '100', 'NX'], 'OK').at(1).enter(1).at(5).exit(1).build();
    const html = render((store) => {
      store.getState().actions.openReplay(savedRun(single), null);
      store.getState().actions.setTimelineMode('votes');
    });
    expect(html).not.toContain('Timeline view');
    expect(html).not.toContain('Who voted for whom');
    expect(html).toContain('id="timeline-title"');
  });
});

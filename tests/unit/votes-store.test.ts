/**
 * The timeline area's view (clients or votes per node) is the store's: it
 * survives opening a saved run, and "Show on timeline" goes back to the
 * clients' lanes, where the violation band is drawn.
 */
import { describe, expect, it } from 'vitest';
import { createLabStore } from '@/components/lab/lab-store';

describe('the timeline area’s view in the store', () => {
  it('starts on the clients, switches to votes, and keeps it for a saved run', () => {
    const store = createLabStore();
    expect(store.getState().view.timelineMode).toBe('clients');
    store.getState().actions.setTimelineMode('votes');
    expect(store.getState().view.timelineMode).toBe('votes');
    store.getState().actions.openReplay(null, null);
    expect(store.getState().view.timelineMode).toBe('votes');
  });

  it('"Show on timeline" shows the clients’ lanes', () => {
    const store = createLabStore();
    store.getState().actions.setTimelineMode('votes');
    store.getState().actions.focusWindow({ from: 10, to: 20 });
    expect(store.getState().view.timelineMode).toBe('clients');
    expect(store.getState().view.focus?.window).toEqual({ from: 10, to: 20 });
  });
});

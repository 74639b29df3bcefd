import { describe, expect, it } from 'vitest';
import type { HistoryEvent } from '@/lib/history';
import { keyHolder } from '@/components/cluster/key-holder';

const set = (seq: number, client: number, node: number, key: string, value: string): HistoryEvent =>
  ({ seq, t: seq, type: 'redis', phase: 'invoke', opId: seq, client, node, command: 'SET', args: [key, value, 'NX', 'PX', '1000'] }) as HistoryEvent;

describe('keyHolder', () => {
  it('names the client whose SET wrote the token on that node', () => {
    const history = [set(1, 1, 1, 'lock:a', 'tok-1'), set(2, 2, 1, 'lock:a', 'tok-2'), set(3, 3, 2, 'lock:a', 'tok-2')];
    expect(keyHolder(history, 1, 'lock:a', 'tok-1')).toBe(1);
    expect(keyHolder(history, 1, 'lock:a', 'tok-2')).toBe(2);
    expect(keyHolder(history, 2, 'lock:a', 'tok-2')).toBe(3);
  });

  it('says nothing for a value no command of the run wrote, or no value', () => {
    const history = [set(1, 1, 1, 'lock:a', 'tok-1')];
    expect(keyHolder(history, 1, 'lock:a', 'other')).toBeNull();
    expect(keyHolder(history, 1, 'lock:b', 'tok-1')).toBeNull();
    expect(keyHolder(history, 1, 'lock:a', null)).toBeNull();
  });

  it('reads a lock event that carried the token (a script the lab does not parse)', () => {
    const lock = { seq: 5, t: 5, type: 'lock', client: 4, event: 'acquired', resources: ['lock:r'], token: 'T' } as HistoryEvent;
    expect(keyHolder([lock], 3, 'lock:r', 'T')).toBe(4);
  });
});

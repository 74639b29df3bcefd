import { describe, expect, it } from 'vitest';
import { redisConfig } from '@/server/cluster/redis-config';

const config = redisConfig({
  port: 41_000,
  persistence: 'none',
  credentials: { control: { username: 'control', password: 'c-secret' }, learner: { username: 'learner', password: 'l-secret' } },
});
const lines = config.trim().split('\n');

describe('redisConfig', () => {
  it('bounds what a learner can make a node hold', () => {
    expect(lines).toEqual(
      expect.arrayContaining([
        'maxclients 256',
        'maxmemory 24mb',
        'maxmemory-clients 32mb',
        'client-output-buffer-limit normal 16mb 8mb 10',
        'proto-max-bulk-len 4mb',
        'client-query-buffer-limit 16mb',
        'busy-reply-threshold 500',
      ]),
    );
    expect(config).not.toMatch(/maxclients 10000|maxmemory-clients 0|normal 0 0 0/);
  });

  it('gives the learner no admin, dangerous or flush commands, and the lab every command', () => {
    const learner = lines.find((l) => l.startsWith('user learner'))!;
    expect(learner).toMatch(/-@admin -@dangerous -script\|flush -function\|flush$/);
    expect(lines.find((l) => l.startsWith('user control'))).toMatch(/\+@all$/);
    expect(lines).toContain('user default off');
  });
});

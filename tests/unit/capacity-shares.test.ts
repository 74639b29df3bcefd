import { afterEach, describe, expect, it, vi } from 'vitest';
import { defaultRunsPerBrowser } from '@/server/capacity';
import { configFromEnv } from '@/server/config';

describe("a browser's share of the runs at once", () => {
  afterEach(() => vi.unstubAllEnvs());

  it('lets every lane of a check play: its own lab and each spare lab', () => {
    // Two cores: 16 runs at once, a tenth of them is 2, and a check plays in 3 labs.
    expect(defaultRunsPerBrowser(16, 3)).toBe(3);
    expect(defaultRunsPerBrowser(16, 5)).toBe(5);
  });

  it('stays a tenth of the runs on a bigger machine, and never below two', () => {
    expect(defaultRunsPerBrowser(80, 3)).toBe(8);
    expect(defaultRunsPerBrowser(16, 1)).toBe(2);
    expect(defaultRunsPerBrowser(16)).toBe(2);
  });

  it('follows LOCKLAB_GRADING_SPARE_LABS in the server config, unless LOCKLAB_RUNS_PER_BROWSER says otherwise', () => {
    vi.stubEnv('LOCKLAB_MAX_RUNS', '16');
    vi.stubEnv('LOCKLAB_RUNS_PER_BROWSER', '');
    vi.stubEnv('LOCKLAB_GRADING_SPARE_LABS', '2');
    expect(configFromEnv().runsPerBrowser).toBe(3);
    vi.stubEnv('LOCKLAB_GRADING_SPARE_LABS', '4');
    expect(configFromEnv().runsPerBrowser).toBe(5);
    vi.stubEnv('LOCKLAB_RUNS_PER_BROWSER', '2');
    expect(configFromEnv().runsPerBrowser).toBe(2);
  });
});

/** What a browser may ask of lesson 8's experiment (`experiment:run`), parsed at the server's edge. */
import { z } from 'zod';
import { MAX_SEED } from '../random';

export const experimentInputSchema = z
  .object({
    /** Replays the variants' runs with this random seed (the workers' wake-up spread, their tokens); drawn when absent. */
    seed: z.number().int().min(0).max(MAX_SEED).optional(),
  })
  .strict();
export type ExperimentInput = z.input<typeof experimentInputSchema>;

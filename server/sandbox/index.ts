/** The sandbox that runs learner code: see README.md in this folder. */
export { createSandboxPool } from './pool';
export { SandboxHostStartError } from './host/sandbox-host';
export { defaultResolveNode } from './hosts';
export { DEFAULT_LIMITS } from './types';
export type {
  ClientEndStatus,
  ClientOutcome,
  Diagnostic,
  LinkPort,
  RedisCredentials,
  RunHandle,
  RunOutcome,
  RunStatus,
  RunThread,
  SandboxLimits,
  SandboxPool,
  SandboxPoolOptions,
  StartRunOptions,
} from './types';

// Worker threads do not inherit a TypeScript loader under every runner
// (vitest, tsx, plain node), so each sandbox worker registers tsx itself.
import { register } from 'tsx/esm/api';
import { workerData } from 'node:worker_threads';

register();
await import(workerData.entry);

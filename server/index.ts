/**
 * Entry point: `node --import tsx server/index.ts` (npm start runs it after set-up).
 * SIGINT / SIGTERM stop every redis-server of every lab and remove the run folder.
 */
import { createLabServer } from './app-server';
import { LinkProcessStartError } from './cluster/link-host/link-host';
import { NodeHostStartError } from './cluster/node-host/node-host';
import { EntryBundleError } from './unprivileged/entry-source';
import { SandboxHostStartError } from './sandbox/host/sandbox-host';
import { configFromEnv } from './config';
import { StoreOpenError } from './store/store';

process.env.NEXT_TELEMETRY_DISABLED = '1';

const config = configFromEnv();
const starting = createLabServer(config);

// Installed as the start begins, before "serving on" is printed: a supervisor (or a test) that reads that line and
// stops the server at once must find the handler, not the default action that leaves the labs' nodes behind.
let stopping = false;
const stop = async (signal: NodeJS.Signals) => {
  if (stopping) return;
  stopping = true;
  console.log(`[locklab] ${signal}: stopping labs`);
  const forced = setTimeout(() => {
    console.error('[locklab] shutdown took too long; exiting');
    process.exit(1);
  }, 10_000);
  forced.unref();
  try {
    // A signal during the start stops what the start made, once it has made it (a failed start has said why).
    const server = await starting.catch(() => null);
    await server?.close();
  } finally {
    process.exit(0);
  }
};
process.on('SIGINT', (s) => void stop(s));
process.on('SIGTERM', (s) => void stop(s));

let server: Awaited<typeof starting>;
try {
  server = await starting;
} catch (error) {
  // A machine the lab cannot run on is said in one sentence, at the start, not at a learner's first run.
  if (!(error instanceof LinkProcessStartError || error instanceof NodeHostStartError || error instanceof SandboxHostStartError || error instanceof EntryBundleError || error instanceof StoreOpenError)) throw error;
  console.error(`[locklab] Lock Lab cannot start: ${error.message}`);
  process.exit(1);
}
// Stopping already (a signal came during the start): stop() closes it and exits; "serving on" would be untrue.
if (!stopping)
  console.log(
    `[locklab] Lock Lab is serving on ${server.url} (${config.dev ? 'development' : 'production'}; up to ${config.maxLabs} labs; store: ${server.store?.where ?? 'none'})`,
  );

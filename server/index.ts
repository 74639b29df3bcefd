/**
 * Entry point: `node --import tsx server/index.ts` (npm start runs it after set-up).
 * SIGINT / SIGTERM stop every redis-server of every lab and remove the run folder.
 */
import { createLabServer } from './app-server';
import { configFromEnv } from './config';

process.env.NEXT_TELEMETRY_DISABLED = '1';

const config = configFromEnv();
const server = await createLabServer(config);
console.log(`[locklab] Lock Lab is serving on ${server.url} (${config.dev ? 'development' : 'production'}; up to ${config.maxLabs} labs)`);

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
    await server.close();
  } finally {
    process.exit(0);
  }
};
process.on('SIGINT', (s) => void stop(s));
process.on('SIGTERM', (s) => void stop(s));

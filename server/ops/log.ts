/**
 * The server's structured log (pino, one JSON object a line on stdout). What
 * goes in: lifecycle, refusals and limit hits with the lab and the browser
 * they concern. What never goes in: a learner's code, Redis passwords, the
 * instructor token (pino's redact list is the last line of defence).
 */
import pino from 'pino';

/** LOCKLAB_LOG_LEVEL wins; tests stay quiet unless they ask (their refusals are asserted through metrics). */
const level = process.env.LOCKLAB_LOG_LEVEL ?? (process.env.VITEST ? 'silent' : 'info');

export const log = pino({
  level,
  base: { service: 'locklab', pid: process.pid },
  redact: { paths: ['code', '*.code', 'password', '*.password', 'token', '*.token', 'credentials'], censor: '[redacted]' },
});

export type Logger = typeof log;

/** Routes the Temporal SDK's own log lines (worker, webpack bundler) into plat's JSON logs. */
import type { LogLevel, LogMetadata, Logger } from '@temporalio/common';
import type { Logger as Pino } from 'pino';

/**
 * Said of every queue a worker polls without workflows or Nexus services (by design:
 * docs/fleet.md#task-queues): debug lines, not five warnings and notices at each start.
 */
const EXPECTED = new Set([
  'No workflows registered, not polling for workflow tasks',
  'No Nexus services registered, not polling for Nexus tasks',
]);

export function temporalLoggerFor(log: Pino): Logger {
  const write = (level: LogLevel, message: string, meta?: LogMetadata) => {
    if (EXPECTED.has(message)) level = 'DEBUG';
    const pinoLevel =
      level === 'WARN' ? 'warn' : (level.toLowerCase() as 'trace' | 'debug' | 'info' | 'error');
    log[pinoLevel]({ ...meta }, message);
  };
  return {
    log: write,
    trace: (m, meta) => write('TRACE', m, meta),
    debug: (m, meta) => write('DEBUG', m, meta),
    info: (m, meta) => write('INFO', m, meta),
    warn: (m, meta) => write('WARN', m, meta),
    error: (m, meta) => write('ERROR', m, meta),
  };
}

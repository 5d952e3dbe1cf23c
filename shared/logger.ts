/**
 * Structured JSON logs (timestamp, level, agent, project_id, phase, event_type, tokens, duration_ms, message). Secrets are redacted by key, wherever
 * they sit in the logged object, so a careless `log.info({ request })` cannot leak a password.
 */
import pino, { type Logger } from 'pino';

/** Keys whose values never reach a log line. */
export const SECRET_KEYS = ['password', 'secret', 'token', 'id_token', 'api_key', 'apiKey', 'authorization'];

const redactPaths = SECRET_KEYS.flatMap((k) => [k, `*.${k}`, `*.*.${k}`]);

/** A logger for one plat process (`service` names it in every line). */
export function createLogger(service: string, level = process.env.LOG_LEVEL ?? 'info'): Logger {
  return pino({
    level,
    base: { service },
    messageKey: 'message',
    timestamp: () => `,"timestamp":"${new Date().toISOString()}"`,
    formatters: { level: (label) => ({ level: label.toUpperCase() }) },
    redact: { paths: redactPaths, censor: '[redacted]' },
  });
}

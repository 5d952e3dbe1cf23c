/**
 * One log line per request: method, path, status, duration, user. Never bodies, headers or query
 * strings. With OpenSearch configured, the same entry also goes to the `plat-access-logs` alias.
 */
import type { RequestHandler } from 'express';
import type { Logger } from 'pino';
import type { LogShipper } from '../domain/search-ops/plat-logs/log-shipper';

export function accessLog(log: Logger, shipper?: LogShipper): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      if (req.originalUrl.startsWith('/health') && res.statusCode === 200) return; // probes would drown the log
      const entry = {
        method: req.method,
        path: req.originalUrl.split('?')[0],
        status: res.statusCode,
        duration_ms: Number((process.hrtime.bigint() - started) / 1_000_000n),
        user_id: req.user?.user_id,
      };
      log.info(entry, 'request');
      shipper?.ship({ '@timestamp': new Date().toISOString(), ...entry });
    });
    next();
  };
}

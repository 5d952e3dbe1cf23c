/** One log line per request: method, path, status, duration, user. Never bodies or headers. */
import type { RequestHandler } from 'express';
import type { Logger } from 'pino';

export function accessLog(log: Logger): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      if (req.originalUrl.startsWith('/health') && res.statusCode === 200) return; // probes would drown the log
      log.info(
        {
          method: req.method,
          path: req.originalUrl.split('?')[0],
          status: res.statusCode,
          duration_ms: Number((process.hrtime.bigint() - started) / 1_000_000n),
          user_id: req.user?.user_id,
        },
        'request',
      );
    });
    next();
  };
}

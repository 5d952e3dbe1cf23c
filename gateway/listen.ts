/** Starts an HTTP app and stops it cleanly on SIGINT/SIGTERM. */
import type { Express } from 'express';
import type { Server } from 'node:http';
import type { Logger } from 'pino';

export function listenUntilSignalled(
  app: Express,
  host: string,
  port: number,
  log: Logger,
  onClose: () => Promise<void> = async () => {},
): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = app.listen(port, host, (err?: Error) => {
      if (err) return reject(err);
      log.info({ url: `http://${host}:${port}` }, 'listening');
      resolve(server);
    });
    server.on('error', reject);
    const stop = (signal: string) => {
      log.info({ signal }, 'shutting down');
      server.close(() => void onClose().finally(() => process.exit(0)));
      // Idle keep-alive sockets would hold close() open.
      server.closeIdleConnections();
      setTimeout(() => process.exit(0), 5000).unref();
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}

/**
 * The CLI's own Temporal client, for commands that run platform workflows (TEMPORAL_ADDRESS, default
 * 127.0.0.1:7233; TEMPORAL_NAMESPACE; PLAT_TASK_QUEUE). Closed when `use` is done.
 */
import type { Client } from '@temporalio/client';
import { ApiError } from './api-client';

export async function withTemporal<T>(use: (client: Client, taskQueue: string) => Promise<T>): Promise<T> {
  const address = process.env.TEMPORAL_ADDRESS ?? '127.0.0.1:7233';
  // Loaded here: commands that need no Temporal should not pay for the client's start-up.
  const { Client, Connection } = await import('@temporalio/client');
  const connection = await Connection.connect({ address, connectTimeout: '5s' }).catch((err: Error) => {
    throw new ApiError(
      1,
      'unreachable',
      `Temporal is not reachable at ${address} (is plat running? npm start): ${err.message}`,
    );
  });
  try {
    const client = new Client({ connection, namespace: process.env.TEMPORAL_NAMESPACE ?? 'default' });
    return await use(client, process.env.PLAT_TASK_QUEUE ?? 'plat-platform');
  } finally {
    await connection.close();
  }
}

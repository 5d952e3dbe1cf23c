/** Worker of the incremental load (generated template): `npx ts-node worker.ts`. */
import { NativeConnection, Worker } from '@temporalio/worker';
import { createActivities, settingsFromEnv } from './activities';
import { TASK_QUEUE } from './schedule-settings';

async function main(): Promise<void> {
  const connection = await NativeConnection.connect({
    address: process.env.TEMPORAL_ADDRESS ?? 'localhost:7233',
  });
  const worker = await Worker.create({
    connection,
    namespace: process.env.TEMPORAL_NAMESPACE ?? 'default',
    taskQueue: TASK_QUEUE,
    workflowsPath: require.resolve('./workflow'),
    activities: createActivities(settingsFromEnv()),
  });
  await worker.run();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

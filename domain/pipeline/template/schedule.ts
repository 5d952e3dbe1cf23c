/** Creates or updates the daily schedule of the incremental load (generated template): `npx ts-node schedule.ts`. */
import { Client, Connection, ScheduleOverlapPolicy, type ScheduleOptions } from '@temporalio/client';
import { CRON, SCHEDULE_ID, TASK_QUEUE } from './schedule-settings';

async function main(): Promise<void> {
  const connection = await Connection.connect({ address: process.env.TEMPORAL_ADDRESS ?? 'localhost:7233' });
  const client = new Client({ connection, namespace: process.env.TEMPORAL_NAMESPACE ?? 'default' });
  const options: ScheduleOptions = {
    scheduleId: SCHEDULE_ID,
    spec: { cronExpressions: [CRON] },
    action: { type: 'startWorkflow', workflowType: 'incrementalLoad', taskQueue: TASK_QUEUE },
    policies: { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: '1 day' },
  };
  try {
    await client.schedule.create(options);
    console.log(`created schedule ${SCHEDULE_ID} (${CRON} UTC)`);
  } catch (err) {
    if ((err as Error).name !== 'ScheduleAlreadyRunning') throw err;
    await client.schedule.getHandle(SCHEDULE_ID).update((previous) => ({
      ...previous,
      spec: options.spec,
      action: options.action,
      policies: options.policies,
    }));
    console.log(`updated schedule ${SCHEDULE_ID} (${CRON} UTC)`);
  }
  await connection.close();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

/** Types of the deep health check shared by the gateway, the worker and the ping workflow. */

/** What the ping activity reports about the worker that ran it. */
export interface WorkerPing {
  nonce: string;
  worker_pid: number;
  worker_host: string;
  task_queue: string;
  activity_ran_at: string;
}

/** Result of the ping workflow: the activity's report plus the workflow's own view. */
export interface PingResult extends WorkerPing {
  workflow_id: string;
}

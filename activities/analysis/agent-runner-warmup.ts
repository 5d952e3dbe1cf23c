/**
 * The agent runner's warm-up (docs/monitoring.md#warm-up): every 5 minutes a schedule sends it
 * `{"_warmup": true}`, and it answers `warm` without touching a project, a source or the warehouse.
 * It keeps the agent-runner activities polled and measured between projects.
 */
import { ApplicationFailure } from '@temporalio/activity';

/** The only body the warm-up accepts. */
export interface WarmupRequest {
  _warmup: true;
}

export async function warmAgentRunner(body: WarmupRequest): Promise<'warm'> {
  if (body?._warmup !== true) {
    throw ApplicationFailure.nonRetryable('warmAgentRunner takes only {"_warmup": true}', 'NotAWarmup');
  }
  return 'warm';
}

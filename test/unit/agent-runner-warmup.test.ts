import { ApplicationFailure } from '@temporalio/common';
import { warmAgentRunner } from '../../activities/analysis/agent-runner-warmup';

describe('the agent runner warm-up', () => {
  it('answers warm to {"_warmup": true}', async () => {
    expect(await warmAgentRunner({ _warmup: true })).toBe('warm');
  });

  it('refuses anything else, without retries', async () => {
    for (const body of [{}, { _warmup: 'true' }, { _warmup: false }, null]) {
      const err = await warmAgentRunner(body as never).catch((e) => e);
      expect(err).toBeInstanceOf(ApplicationFailure);
      expect(err).toMatchObject({ type: 'NotAWarmup', nonRetryable: true });
    }
  });
});

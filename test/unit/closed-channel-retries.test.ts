/** The test setup's guard against client retries that fire after their connection closed (test/harness/closed-channel-retries.ts). */
import { promisify } from 'node:util';

describe('timers under the closed-channel guard', () => {
  it('drops "Channel has been shut down" from a client retry, outside any test', async () => {
    let ran = false;
    const retry = () => {
      ran = true;
      throw new Error('Channel has been shut down');
    };
    setTimeout(retry, 1);
    // Were it thrown, jest would fail this test with the uncaught error.
    await new Promise((r) => setTimeout(r, 20));
    expect(ran).toBe(true);
  });

  it('leaves other timers as they were: arguments passed, promisify still works', async () => {
    const got = await new Promise((r) => setTimeout((a: string, b: number) => r([a, b]), 1, 'x', 2));
    expect(got).toEqual(['x', 2]);
    expect(await promisify(setTimeout)(1, 'value')).toBe('value');
  });
});

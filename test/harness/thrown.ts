/** What a synchronous call throws, for tests that look into the error rather than only match it. */

/** The value `run` throws, or undefined when it returns. */
export function thrownBy(run: () => unknown): unknown {
  try {
    run();
  } catch (err) {
    return err;
  }
  return undefined;
}

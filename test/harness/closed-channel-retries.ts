/**
 * A retry of `@temporalio/client` that fires after its connection was closed does nothing, rather
 * than fail whichever test file the jest worker runs next.
 *
 * The client's retry interceptor (`grpc-retry.ts`, `makeGrpcRetryInterceptor`) schedules each retry
 * with a plain `setTimeout`, and `Connection.close()` does not clear those timers: when one fires
 * after a test's environment closed its connection, gRPC throws "Channel has been shut down" from
 * inside the timer, outside any test, and jest fails the file then running with "Test suite failed
 * to run" (seen once, in a clean-clone CI run: every test had passed). Only that error from only
 * that callback (named `retry`) is dropped; every other timer and error is untouched.
 */
const realSetTimeout = globalThis.setTimeout;

function setTimeoutDroppingClosedChannelRetries(
  callback: (...args: unknown[]) => void,
  ms?: number,
  ...args: unknown[]
): NodeJS.Timeout {
  if (typeof callback !== 'function' || callback.name !== 'retry')
    return realSetTimeout(callback, ms, ...args);
  return realSetTimeout(
    (...callArgs: unknown[]) => {
      try {
        callback(...callArgs);
      } catch (err) {
        if (!(err instanceof Error && err.message === 'Channel has been shut down')) throw err;
      }
    },
    ms,
    ...args,
  );
}

// The same function otherwise: `util.promisify(setTimeout)` and its other properties still work.
Object.assign(setTimeoutDroppingClosedChannelRetries, realSetTimeout);
globalThis.setTimeout = setTimeoutDroppingClosedChannelRetries as typeof setTimeout;

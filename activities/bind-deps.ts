/**
 * Activities written as named functions that take their dependencies first
 * (docs/architecture.md#activities-and-domain), bound to those dependencies for the worker: the
 * registration map keeps each function's name, and each bound activity takes what the workflow sends.
 */

/** `fns` with `deps` as every function's first argument. */
export type BoundActivities<D, F> = {
  [K in keyof F]: F[K] extends (deps: D, ...args: infer A) => infer R ? (...args: A) => R : never;
};

/** Every function of `fns` with `deps` bound as its first argument. */
export function bindDeps<D, F extends Record<string, (deps: D, ...args: never[]) => unknown>>(
  deps: D,
  fns: F,
): BoundActivities<D, F> {
  return Object.fromEntries(
    Object.entries(fns).map(([name, fn]) => [
      name,
      (...args: unknown[]) => (fn as (deps: D, ...a: unknown[]) => unknown)(deps, ...args),
    ]),
  ) as BoundActivities<D, F>;
}

/** The compiled copy of plat's sources (scripts/lib/compiled-runtime.cjs). */

/** The folder of the compiled copy of the current sources, built if missing. */
export function ensureCompiledRuntime(): string;
/** The compiled JavaScript of `entry` (a source path such as `workers/main.ts`), built if missing. */
export function compiledEntry(entry: string): string;
/** Node's arguments to run `entry` compiled (source maps on). */
export function compiledNodeArgs(entry: string): string[];
/** Runs `entry` compiled in this process (source maps on), as the launchers do. */
export function runCompiled(entry: string): void;

/** Starts one of plat's own entry points as a child process, from the compiled copy of the sources. */
import * as path from 'node:path';
import { repoRoot } from '../../shared/paths';
import { spawnService, type ChildService } from './child-service';
import { compiledNodeArgs } from './compiled-runtime.cjs';

export function startNodeService(
  name: string,
  entry: string,
  logDir: string,
  env: NodeJS.ProcessEnv,
  onLine?: (line: string) => void,
): ChildService {
  return spawnService(name, process.execPath, compiledNodeArgs(entry), path.join(logDir, `${name}.log`), {
    cwd: repoRoot,
    env,
    onLine,
    // Their logs have retention periods: one file per day, so old days can go whole.
    dailyLog: true,
  });
}

/** True when GET `url` answers 200. */
export async function httpOk(url: string): Promise<boolean> {
  const res = await fetch(url, { signal: AbortSignal.timeout(20_000) });
  await res.arrayBuffer();
  return res.ok;
}

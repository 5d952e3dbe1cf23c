/** Starts one of plat's own TypeScript entry points as a child process (node --import tsx). */
import * as path from 'node:path';
import { repoRoot } from '../../shared/paths';
import { spawnService, type ChildService } from './child-service';

export function startNodeService(
  name: string,
  entry: string,
  logDir: string,
  env: NodeJS.ProcessEnv,
  onLine?: (line: string) => void,
): ChildService {
  return spawnService(
    name,
    process.execPath,
    ['--import', 'tsx', path.join(repoRoot, entry)],
    path.join(logDir, `${name}.log`),
    {
      cwd: repoRoot,
      env,
      onLine,
      // Their logs have retention periods: one file per day, so old days can go whole.
      dailyLog: true,
    },
  );
}

/** True when GET `url` answers 200. */
export async function httpOk(url: string): Promise<boolean> {
  const res = await fetch(url, { signal: AbortSignal.timeout(20_000) });
  await res.arrayBuffer();
  return res.ok;
}

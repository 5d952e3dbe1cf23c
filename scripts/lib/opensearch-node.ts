/**
 * A local single-node OpenSearch with the ISM and job-scheduler plugins, provisioned from Maven
 * Central by scripts/provision-opensearch.sh and run by scripts/run-opensearch.sh.
 */
import { execFile } from 'node:child_process';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { repoRoot } from '../../shared/paths';
import { spawnService, stopOnFailure, waitUntil, type ChildService } from './child-service';

const run = promisify(execFile);

export interface OpenSearchNode {
  service: ChildService;
  url: string;
  /** Installed plugin components, e.g. opensearch-job-scheduler. */
  plugins: string[];
}

export async function startOpenSearch(opts: {
  port: number;
  dataDir: string;
  logFile: string;
  readyTimeoutMs?: number;
  /** JVM options added to the node's own (OPENSEARCH_JAVA_OPTS), after any already set. */
  javaOpts?: string;
}): Promise<OpenSearchNode> {
  await run('bash', [path.join(repoRoot, 'scripts', 'provision-opensearch.sh')], {
    maxBuffer: 16 * 1024 * 1024,
  });
  const service = spawnService(
    'opensearch',
    'bash',
    [path.join(repoRoot, 'scripts', 'run-opensearch.sh'), String(opts.port), opts.dataDir],
    opts.logFile,
    opts.javaOpts
      ? {
          env: {
            ...process.env,
            OPENSEARCH_JAVA_OPTS: [process.env.OPENSEARCH_JAVA_OPTS, opts.javaOpts].filter(Boolean).join(' '),
          },
        }
      : {},
  );
  const url = `http://127.0.0.1:${opts.port}`;
  await stopOnFailure(service, () =>
    waitUntil(
      `OpenSearch on ${url}`,
      async () => {
        const res = await fetch(`${url}/_cluster/health`, { signal: AbortSignal.timeout(5000) });
        const body = (await res.json()) as { status?: string };
        return res.ok && (body.status === 'green' || body.status === 'yellow');
      },
      { timeoutMs: opts.readyTimeoutMs ?? 180_000, intervalMs: 1000, service },
    ),
  );
  const catPlugins = await fetch(`${url}/_cat/plugins?format=json`).then(
    (r) => r.json() as Promise<{ component: string }[]>,
  );
  return { service, url, plugins: catPlugins.map((p) => p.component) };
}

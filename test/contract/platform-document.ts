/**
 * What the platform gateway's two contract files share: a signed-in user, the gateway's own OpenAPI
 * document written to a file, which of its operations need an OpenSearch cluster, and the run.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { apiCaller } from '../harness/api-caller';
import { runSchemathesis } from '../harness/schemathesis';

/**
 * The operations that work on an OpenSearch cluster: `/v1/search`, and a project's agent logs (read
 * from the cluster with `source=opensearch`). `platform-search.contract.test.ts` runs them against a
 * real node; `platform-api.contract.test.ts` runs the others, without one.
 */
export const ON_CLUSTER_PATHS = '^/v1/(search/.*|projects/\\{project_id\\}/agent-logs)$';

/** The operations the document has, and how many of them `ON_CLUSTER_PATHS` selects. */
interface DocumentOperations {
  all: number;
  onCluster: number;
}

/** An operation object of the document (only what the contract files touch). */
interface Operation {
  requestBody?: { content: Record<string, { example?: unknown }> };
}

/**
 * Signs a user up on the gateway at `base`, writes its document to `<dir>/openapi.json` (after
 * `edit`, if given) and answers the file, the user's bearer token and the document's operations.
 */
async function platformDocument(
  base: string,
  dir: string,
  edit?: (paths: Record<string, Record<string, Operation>>) => void,
): Promise<{ file: string; token: string; operations: DocumentOperations }> {
  const call = apiCaller(() => base);
  const token = (await call('POST', '/auth/signup', { username: 'contract', password: 'contract test' })).body
    .id_token as string;
  const doc = (await call('GET', '/openapi.json')).body as {
    paths: Record<string, Record<string, Operation>>;
  };
  edit?.(doc.paths);
  const file = path.join(dir, 'openapi.json');
  fs.writeFileSync(file, JSON.stringify(doc));
  const count = (paths: string[]) =>
    paths.reduce((n, p) => n + Object.keys(doc.paths[p]).filter((m) => m !== 'parameters').length, 0);
  const onCluster = new RegExp(ON_CLUSTER_PATHS);
  const paths = Object.keys(doc.paths);
  return {
    file,
    token,
    operations: { all: count(paths), onCluster: count(paths.filter((p) => onCluster.test(p))) },
  };
}

/**
 * Runs schemathesis (every check and phase, 15 generated cases per operation on top of the coverage
 * phase's boundaries) on the gateway at `base` as a signed-in user, over the operations on a
 * cluster or over the others, and checks that it found nothing and selected exactly those.
 */
export async function runPlatformContract(opts: {
  base: string;
  dir: string;
  operations: 'on a cluster' | 'the others';
  edit?: (paths: Record<string, Record<string, Operation>>) => void;
}): Promise<void> {
  const { file, token, operations } = await platformDocument(opts.base, opts.dir, opts.edit);
  const onCluster = opts.operations === 'on a cluster';
  const run = await runSchemathesis(file, {
    baseUrl: opts.base,
    headers: { Authorization: `Bearer ${token}` },
    ...(onCluster ? { includePaths: ON_CLUSTER_PATHS } : { excludePaths: ON_CLUSTER_PATHS }),
    // The coverage phase tries every operation's boundaries whatever this is; 15 generated cases
    // per operation on top keep the run to minutes on a 2-core machine.
    maxExamples: 15,
  });
  if (run.exitCode !== 0) throw new Error(run.report);
  expect(run.summary).toMatch(/^(\d+) generated, \1 passed/);
  expect(run.selected).toEqual({
    operations: onCluster ? operations.onCluster : operations.all - operations.onCluster,
    of: operations.all,
  });
}

/**
 * For tests that ask for OpenSearch: a real single node (provisioned from Maven Central on first
 * use) on a free port, with its data in a temp dir. Most test files lease one from the run's pool
 * instead (test/harness/opensearch-pool.ts), which starts its nodes with this; a test file that
 * needs a node to itself calls this in beforeAll and stops the node in afterAll.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { freePort } from '../../shared/free-port';
import { startOpenSearch } from '../../scripts/lib/opensearch-node';

/**
 * A test node's JVM: the quick (C1) compiler alone and the serial collector. A test node serves small
 * indices for a few minutes, where the optimizing compiler and G1's threads are CPU spent on a busy
 * 2-core machine for nothing: starting to ready takes a third of the CPU (measured: 3.3 s against
 * 9.2 s), and the search suites run in 65 s instead of 91. `npm start`'s node keeps OpenSearch's own options.
 */
const TEST_NODE_JAVA_OPTS = '-XX:TieredStopAtLevel=1 -XX:-UseG1GC -XX:+UseSerialGC';

/** A started node: its URL, its directory (data, config and log) and how to stop it. */
export interface TestOpenSearch {
  url: string;
  dir: string;
  stop(): Promise<void>;
}

/**
 * A new directory for a node, as mkdtemp made it (mode 700) when `privateDir`, else opened (755).
 * Every process of the node mentions it (its configuration path), which finds them again.
 */
export function testOpenSearchDir(privateDir = false): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'plat-opensearch-'));
  if (!privateDir) fs.chmodSync(dir, 0o755);
  return dir;
}

/**
 * `privateDir`: keep the node's directory as mkdtemp made it (mode 700), as in a clone in a private
 * temporary directory; run as root, the node then cannot use its unprivileged user and
 * run-opensearch.sh runs it in a user namespace. Otherwise the directory is opened (755) and, as
 * root, the node runs as the `opensearch` user. `dir`: one made by `testOpenSearchDir` (with the
 * same `privateDir`), instead of a new one.
 */
export async function startTestOpenSearch(
  opts: { privateDir?: boolean; dir?: string } = {},
): Promise<TestOpenSearch> {
  const dir = opts.dir ?? testOpenSearchDir(opts.privateDir);
  const node = await startOpenSearch({
    port: await freePort(),
    dataDir: path.join(dir, 'node'),
    logFile: path.join(dir, 'opensearch.log'),
    javaOpts: TEST_NODE_JAVA_OPTS,
  });
  return {
    url: node.url,
    dir,
    async stop() {
      await node.service.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * For tests that ask for OpenSearch: a real single node (provisioned from Maven Central on first
 * use) on a free port, with its data in a temp dir. Call in beforeAll; stop in afterAll.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { freePort } from '../../scripts/lib/free-port';
import { startOpenSearch } from '../../scripts/lib/opensearch-node';

export interface TestOpenSearch {
  url: string;
  stop(): Promise<void>;
}

/**
 * `privateDir`: keep the node's directory as mkdtemp made it (mode 700), as in a clone in a private
 * temporary directory; run as root, the node then cannot use its unprivileged user and
 * run-opensearch.sh runs it in a user namespace. Otherwise the directory is opened (755) and, as
 * root, the node runs as the `opensearch` user.
 */
export async function startTestOpenSearch(opts: { privateDir?: boolean } = {}): Promise<TestOpenSearch> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'plat-opensearch-'));
  if (!opts.privateDir) fs.chmodSync(dir, 0o755);
  const node = await startOpenSearch({
    port: await freePort(),
    dataDir: path.join(dir, 'node'),
    logFile: path.join(dir, 'opensearch.log'),
  });
  return {
    url: node.url,
    async stop() {
      await node.service.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

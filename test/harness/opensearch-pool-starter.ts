/**
 * Starts a pool node (test/harness/opensearch-pool.ts) in a process of its own that exits once the
 * node is ready, so the node's parent is never a test process: the node outlives the test file and
 * jest worker that asked for it, and holds none of them open (a child process keeps its parent's
 * event loop alive). The starter records the node in its slot (`node.json`, with its contents when
 * fresh), or why it failed (`start-error`).
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { repoRoot } from '../../shared/paths';
import { startTestOpenSearch, testOpenSearchDir, type TestOpenSearch } from './opensearch';
import { openSearchCall } from './opensearch-call';
import { nodeContents } from './opensearch-contents';
import { readNode, writeNode } from './opensearch-pool-slots';

const POLL_MS = 250;

/** Starts a node for the slot in `slotDir` and resolves once `node.json` records it started; throws why not. */
export async function startPoolNode(slotDir: string, privateDir: boolean): Promise<void> {
  const log = fs.openSync(path.join(slotDir, 'starter.log'), 'a');
  const starter = spawn(
    process.execPath,
    ['--import', 'tsx', __filename, slotDir, privateDir ? 'private' : 'open'],
    { cwd: repoRoot, detached: true, stdio: ['ignore', log, log] },
  );
  fs.closeSync(log);
  starter.unref();
  for (;;) {
    if (readNode(slotDir)?.fresh) return;
    const error = path.join(slotDir, 'start-error');
    if (fs.existsSync(error)) throw new Error(fs.readFileSync(error, 'utf8'));
    if (starter.exitCode !== null || starter.signalCode !== null)
      throw new Error(
        `the OpenSearch pool's starter ended (${starter.exitCode ?? starter.signalCode}) without a node: ` +
          fs.readFileSync(path.join(slotDir, 'starter.log'), 'utf8').slice(-2000),
      );
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

async function main(slotDir: string, privateDir: boolean): Promise<void> {
  const dir = testOpenSearchDir(privateDir);
  // Recorded before it starts: its directory finds its processes, should this process die midway.
  writeNode(slotDir, { dir, privateDir });
  let node: TestOpenSearch | undefined;
  try {
    node = await startTestOpenSearch({ privateDir, dir });
    const fresh = await nodeContents(openSearchCall(node.url));
    writeNode(slotDir, { dir, privateDir, url: node.url, fresh });
    process.exit(0);
  } catch (err) {
    // Not recorded (or its slot was retired meanwhile): nothing else would stop it.
    await node?.stop();
    try {
      fs.writeFileSync(path.join(slotDir, 'start-error'), (err as Error).message);
    } finally {
      process.exit(1);
    }
  }
}

if (require.main === module) void main(process.argv[2], process.argv[3] === 'private');

/**
 * A process's stock of unused named pipes, made a batch at a time. Node has no mkfifo, so each batch
 * runs the `mkfifo` program, and starting a program forks this whole process first: tens of
 * milliseconds in a worker holding a large heap, for every table copied when each copy made its own.
 * A copy takes its pipes from the stock (a rename each) and the stock is refilled by one `mkfifo` for
 * the next batch.
 */
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Pipes made per `mkfifo` run (a copy uses one per reading lane). */
const BATCH = 32;

interface Stock {
  dir: string;
  free: string[];
  made: number;
}

let stock: Stock | undefined;
let refill: Promise<void> | undefined;

/**
 * `count` unused FIFOs (mode 600) in the stock folder, made by `mkfifo` in `newStockDir()` when the
 * stock runs short. The caller renames them away; they are its own from then on.
 */
export async function takeFifos(count: number, newStockDir: () => string): Promise<string[]> {
  for (;;) {
    if (stock && fs.existsSync(stock.dir) && stock.free.length >= count) return stock.free.splice(0, count);
    // One refill at a time; whoever waited looks again.
    refill ??= makeBatch(Math.max(BATCH, count), newStockDir).finally(() => (refill = undefined));
    await refill;
  }
}

async function makeBatch(count: number, newStockDir: () => string): Promise<void> {
  // A stock folder removed under us (a cleaned temporary directory) starts again in a new one.
  if (!stock || !fs.existsSync(stock.dir)) stock = { dir: newStockDir(), free: [], made: 0 };
  const current = stock;
  const paths = Array.from({ length: count }, (_, i) => path.join(current.dir, `fifo-${current.made + i}`));
  try {
    await run('mkfifo', ['-m', '600', ...paths]);
  } catch (err) {
    throw new Error(`cannot create named pipes with mkfifo: ${(err as Error).message}`, { cause: err });
  }
  current.made += count;
  current.free.push(...paths);
}

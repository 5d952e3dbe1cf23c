/**
 * Named pipes (FIFOs) that stream CSV from this process into DuckDB's `read_csv`, so a table goes
 * from MySQL to Parquet without a temporary file or a staging table: memory stays bounded by the
 * pipe, the encoder's chunks and DuckDB's row group, whatever the table's size.
 *
 * Opening a FIFO blocks until the other side opens it. A blocking open would hold one of libuv's few
 * pool threads, which DuckDB's own calls also need, so the write side is opened non-blocking and
 * retried until DuckDB has opened the read side, then written through a libuv pipe (backpressure by
 * `write()` returning false and `drain`).
 */
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { processAlive } from '../../shared/process-alive';
import { takeFifos } from './ods-fifo-stock';

/** A directory of FIFOs, removed whole by `dispose`. */
export interface FifoSet {
  paths: string[];
  dispose(): void;
}

const PREFIX = 'plat-ods-';
/**
 * Bytes queued for a pipe before the writer is told to wait: a few chunks ahead, so the reader of
 * MySQL and DuckDB rarely wait for each other (and the reader is seldom paused, which costs copies).
 */
const WRITE_AHEAD_BYTES = 4 * 1024 * 1024;

/**
 * `count` FIFOs in a fresh private temporary directory, taken from the process's stock of unused
 * ones (./ods-fifo-stock.ts), so most copies start without running `mkfifo`.
 */
export async function createFifos(count: number): Promise<FifoSet> {
  sweepOrphans();
  const fresh = await takeFifos(count, () => fs.mkdtempSync(path.join(fifoRoot(), 'stock-')));
  const dir = fs.mkdtempSync(path.join(fifoRoot(), 'copy-'));
  const dispose = () => fs.rmSync(dir, { recursive: true, force: true });
  try {
    const paths = fresh.map((from, i) => {
      const to = path.join(dir, `lane-${i}.csv`);
      fs.renameSync(from, to);
      return to;
    });
    return { paths, dispose };
  } catch (err) {
    dispose();
    throw err;
  }
}

/**
 * This process's folder of pipes (private to its user): every pipe a copy reads is below it, so the
 * copy's DuckDB may read there and in the project's directory and nowhere else
 * (docs/security.md#the-warehouse-sandbox).
 */
export function fifoRoot(): string {
  // A fresh name made once (mkdtemp: mode 0700, never a folder someone made first), and again only
  // if the temporary directory was cleaned under us.
  if (!root || !fs.existsSync(root))
    root = fs.mkdtempSync(path.join(os.tmpdir(), `${PREFIX}${process.pid}-`));
  return root;
}

let root: string | undefined;

/**
 * Opens the write side once a reader has opened the FIFO. Gives up when `abandoned()` turns true
 * (the reader failed before opening it).
 */
export async function openFifoWriter(file: string, abandoned: () => boolean): Promise<net.Socket> {
  for (let wait = 1; ; wait = Math.min(wait * 2, 50)) {
    try {
      const fd = fs.openSync(file, fs.constants.O_WRONLY | fs.constants.O_NONBLOCK);
      // Socket passes stream options on to its Duplex; the typings only lack the field.
      const options = { fd, readable: false, writable: true, writableHighWaterMark: WRITE_AHEAD_BYTES };
      return new net.Socket(options as net.SocketConstructorOpts);
    } catch (err) {
      // ENXIO: nobody reads yet.
      if ((err as NodeJS.ErrnoException).code !== 'ENXIO') throw err;
    }
    if (abandoned()) throw new Error(`nobody opened ${path.basename(file)} for reading`);
    await new Promise((resolve) => setTimeout(resolve, wait));
  }
}

/**
 * Removes the pipes after a failure, so that DuckDB ends whatever it is doing with them: a read side
 * that is open, still opening, or not yet opened all see end of file (or no file), never a wait.
 */
export function abandonFifos(set: FifoSet): void {
  // Hold a write side (read-write opens never block on Linux) while the paths disappear, so an open
  // in progress completes, then close it: the reader sees end of file.
  const held = set.paths.flatMap((p) => {
    try {
      return [fs.openSync(p, fs.constants.O_RDWR | fs.constants.O_NONBLOCK)];
    } catch {
      return [];
    }
  });
  set.dispose();
  held.forEach((fd) => fs.closeSync(fd));
}

/** Ends the write side (the reader sees end of file once the buffered chunks are read). */
export function endFifoWriter(socket: net.Socket): Promise<void> {
  return new Promise((resolve, reject) => {
    socket.once('error', reject);
    socket.end(() => resolve());
  });
}

/** Removes the pipe directories of processes that died without cleaning up (a killed worker). */
function sweepOrphans(): void {
  for (const name of fs.readdirSync(os.tmpdir())) {
    if (!name.startsWith(PREFIX)) continue;
    // `plat-ods-<pid>`, or `plat-ods-<pid>-…` as earlier versions named theirs.
    const pid = Number(/^\D*(\d+)(?:-|$)/.exec(name)?.[1]);
    if (!pid || pid === process.pid || processAlive(pid)) continue;
    fs.rmSync(path.join(os.tmpdir(), name), { recursive: true, force: true });
  }
}

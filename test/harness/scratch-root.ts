/**
 * Where a test run keeps its files: the run's servers (MariaDB, PostgreSQL, OpenSearch), the
 * warehouses the tests build and everything the tests and their processes put in the temp directory.
 *
 * A run creates and deletes many thousands of files (an ADS table is a Parquet file per day).
 * On a disk filesystem that is kernel time: on the 2-core CI machine (ext4 mounted with `discard`) the
 * schema zoo suite took 67 s (37 s of system CPU) on disk and 52 s (23 s) in memory, run back to
 * back. So the run lives in `/dev/shm` when that is a memory filesystem with
 * room to spare (a run peaks near 1 GB), else in the system temp directory. `PLAT_TEST_TMPDIR` chooses.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';

const MEMORY_FS = '/dev/shm';
/** statfs(2)'s filesystem type of tmpfs. */
const TMPFS_MAGIC = 0x01021994;
/** Free space /dev/shm needs before a run goes there: a run's peak, several times over. */
const MEMORY_FS_MIN_FREE_BYTES = 4 * 1024 ** 3;

/** The directory a test run's own directory is made in. */
export function testScratchRoot(): string {
  if (process.env.PLAT_TEST_TMPDIR) return process.env.PLAT_TEST_TMPDIR;
  return memoryFsWithRoom() ? MEMORY_FS : os.tmpdir();
}

function memoryFsWithRoom(): boolean {
  try {
    fs.accessSync(MEMORY_FS, fs.constants.W_OK);
    const stats = fs.statfsSync(MEMORY_FS);
    return stats.type === TMPFS_MAGIC && stats.bavail * stats.bsize >= MEMORY_FS_MIN_FREE_BYTES;
  } catch {
    return false;
  }
}

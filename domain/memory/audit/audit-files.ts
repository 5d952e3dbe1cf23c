/**
 * Audit lines in daily files, `audit-YYYY-MM-DD.jsonl` (UTC date) under one directory: each line is
 * one write to the day's file, held open for append (an open and a close per line cost tens of
 * milliseconds on a disk busy with database syncs).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { AuditLines } from './audit-log';

export function auditFiles(dir: string): AuditLines {
  /** The open file of the day last written. */
  let open: { file: string; handle: fs.promises.FileHandle } | undefined;
  const handleFor = async (file: string) => {
    if (open?.file === file) return open.handle;
    const previous = open;
    open = undefined;
    await previous?.handle.close();
    await fs.promises.mkdir(dir, { recursive: true });
    const handle = await fs.promises.open(file, 'a');
    open = { file, handle };
    return handle;
  };
  return {
    async write(at, line) {
      const handle = await handleFor(path.join(dir, `audit-${at.toISOString().slice(0, 10)}.jsonl`));
      await handle.write(`${line}\n`);
    },
    async close() {
      await open?.handle.close();
      open = undefined;
    },
  };
}

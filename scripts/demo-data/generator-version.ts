/**
 * The generators' version: a hash of their own source files, so any change to how data is
 * generated changes the version without anyone having to remember to bump a number.
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';

let cached: string | undefined;

function sourceFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) return sourceFiles(full);
      return /\.(ts|js)$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [full] : [];
    })
    .sort();
}

/** Twelve hex digits of the SHA-256 of every source file in this folder (scripts/demo-data). */
export function generatorVersion(): string {
  if (cached) return cached;
  const hash = createHash('sha256');
  for (const file of sourceFiles(__dirname)) {
    hash.update(path.relative(__dirname, file)).update('\0').update(fs.readFileSync(file)).update('\0');
  }
  cached = hash.digest('hex').slice(0, 12);
  return cached;
}

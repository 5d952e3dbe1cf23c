/** The compiled copy of plat's sources that its processes run from (docs/architecture.md#compiled-runtime). */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { compiledEntry, ensureCompiledRuntime } from '../../scripts/lib/compiled-runtime.cjs';
import { repoRoot } from '../../shared/paths';

describe('the compiled runtime', () => {
  it('holds every entry point as JavaScript with a map back to its TypeScript, and no pipeline template', () => {
    const dir = ensureCompiledRuntime();
    expect(path.dirname(dir)).toBe(path.join(repoRoot, 'dist'));
    for (const entry of [
      'workers/main.ts',
      'gateway/platform/platform-main.ts',
      'gateway/memory/memory-main.ts',
    ]) {
      const js = compiledEntry(entry);
      expect(js).toBe(path.join(dir, entry.replace(/\.ts$/, '.js')));
      const map = JSON.parse(fs.readFileSync(`${js}.map`, 'utf8')) as { sources: string[] };
      expect(path.resolve(path.dirname(js), map.sources[0])).toBe(path.join(repoRoot, entry));
    }
    // The template is copied to users as TypeScript, from the repository.
    expect(fs.existsSync(path.join(dir, 'domain', 'pipeline', 'template'))).toBe(false);
  });

  it('runs an entry point with its own arguments, and says how when given none', () => {
    const run = (...args: string[]) =>
      spawnSync(process.execPath, [path.join(repoRoot, 'scripts', 'run-compiled.cjs'), ...args], {
        cwd: repoRoot,
        encoding: 'utf8',
      });
    const help = run('gateway/cli/main.ts', 'index', '--help');
    expect([help.status, help.stdout]).toEqual([0, expect.stringContaining('index bootstrap NAME')]);
    const usage = run();
    expect([usage.status, usage.stderr]).toEqual([
      2,
      expect.stringContaining('usage: node scripts/run-compiled.cjs'),
    ]);
  });
});

// plat's processes run from a compiled copy of the TypeScript (docs/architecture.md#compiled-runtime):
// esbuild transpiles every source file once (about 0.4 s) into dist/runtime-<hash of the sources>/,
// and a process then starts in about a third of the CPU that loading the TypeScript through tsx
// takes. Plain CommonJS, so the `plat` launcher can use it before any TypeScript loads.
'use strict';
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { hashFiles, walkFiles } = require('./source-files.cjs');

const repoRoot = path.resolve(__dirname, '..', '..');

/** The folders of plat's own code that processes load. */
const SOURCE_DIRS = [
  'activities',
  'domain',
  'gateway',
  'schedules',
  'scripts',
  'shared',
  'workers',
  'workflows',
];

/** Not plat's code: the pipeline template is copied to users as TypeScript (domain/pipeline/). */
const EXCLUDED = [path.join('domain', 'pipeline', 'template')];

/**
 * How every source file is compiled; part of the copy's hash, so a copy built otherwise is not reused.
 * `import('./x')` becomes a `require`: Node's ESM loader, which an `import()` in CommonJS goes
 * through, finds no extensionless relative path, and commands load their heavy modules on use
 * (docs/architecture.md#the-cli).
 */
const BUILD_OPTIONS = {
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  supported: { 'dynamic-import': false },
  // Stack traces name the TypeScript lines (processes start with --enable-source-maps).
  sourcemap: 'linked',
};

/** Copies of other sources are removed once this old: a process may still be loading one. */
const STALE_BUILD_MS = 24 * 3600_000;

function sourceFiles() {
  return walkFiles(
    repoRoot,
    SOURCE_DIRS,
    (name) => name.endsWith('.ts') && !name.endsWith('.d.ts'),
    (rel, name) => name === 'node_modules' || EXCLUDED.includes(rel),
  );
}

/** The folder of the compiled copy of these sources (whether or not it exists yet). */
function runtimeDir(files) {
  const hash = hashFiles(
    repoRoot,
    files,
    `${require('esbuild/package.json').version} ${JSON.stringify(BUILD_OPTIONS)}`,
  );
  return path.join(repoRoot, 'dist', `runtime-${hash.slice(0, 16)}`);
}

/**
 * The compiled copy of the current sources, built if missing. Builds write to a temporary folder
 * and rename it: processes starting at once may each build, and a reader only sees a whole copy.
 */
function ensureCompiledRuntime() {
  const files = sourceFiles();
  const dir = runtimeDir(files);
  if (fs.existsSync(dir)) return dir;
  const building = `${dir}.${process.pid}-${crypto.randomBytes(4).toString('hex')}.tmp`;
  require('esbuild').buildSync({
    entryPoints: files.map((f) => path.join(repoRoot, f)),
    outdir: building,
    outbase: repoRoot,
    ...BUILD_OPTIONS,
    logLevel: 'error',
  });
  try {
    fs.renameSync(building, dir);
  } catch (err) {
    // Another process finished the same copy first: use it.
    fs.rmSync(building, { recursive: true, force: true });
    if (!fs.existsSync(dir)) throw err;
  }
  removeStaleCopies(dir);
  return dir;
}

function removeStaleCopies(current) {
  const parent = path.dirname(current);
  const now = Date.now();
  for (const name of fs.readdirSync(parent)) {
    const full = path.join(parent, name);
    if (!name.startsWith('runtime-') || full === current) continue;
    try {
      if (now - fs.statSync(full).mtimeMs > STALE_BUILD_MS) fs.rmSync(full, { recursive: true, force: true });
    } catch {
      // Another process removed it first.
    }
  }
}

/** The compiled JavaScript of `entry` (a source path such as `workers/main.ts`), built if missing. */
function compiledEntry(entry) {
  const rel = path.relative(repoRoot, path.resolve(repoRoot, entry));
  return path.join(ensureCompiledRuntime(), rel.replace(/\.ts$/, '.js'));
}

/** Node's arguments to run `entry` compiled, in a process of its own. */
function compiledNodeArgs(entry) {
  return ['--enable-source-maps', compiledEntry(entry)];
}

/** Runs `entry` compiled in this process, as `compiledNodeArgs` does in another (the launchers). */
function runCompiled(entry) {
  const compiled = compiledEntry(entry);
  process.setSourceMapsEnabled(true);
  require(compiled);
}

module.exports = { compiledEntry, compiledNodeArgs, ensureCompiledRuntime, runCompiled };

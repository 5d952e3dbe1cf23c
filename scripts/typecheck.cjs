#!/usr/bin/env node
// `npm run typecheck` (and the first step of `npm test`): the generated API types brought up to date,
// then tsc over the whole project and over the web pages' scripts (checked JSDoc, web/tsconfig.json),
// skipped when
// nothing it reads has changed since it last passed. tsc's own incremental mode still parses and
// binds all 4,400 files of types when nothing changed (about 12 s on 2 cores); this compares one
// hash of the inputs instead: tsconfig.json, the lockfile (which fixes every package's types), the
// TypeScript version, and each .ts, .js and .json file of the folders tsconfig.json includes.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { hashFiles, walkFiles } = require('./lib/source-files.cjs');

const repoRoot = path.resolve(__dirname, '..');
const STAMP = path.join(repoRoot, '.data', 'typecheck.stamp');
const SKIPPED_DIRS = new Set(['node_modules', 'dist', '.data', '.tools']);

/** tsconfig.json, the lockfile, and each .ts, .js and .json file of the folders tsconfig.json includes. */
function inputFiles() {
  const { include } = JSON.parse(fs.readFileSync(path.join(repoRoot, 'tsconfig.json'), 'utf8'));
  const files = walkFiles(
    repoRoot,
    include,
    (name) => /\.(ts|json|js)$/.test(name),
    (_rel, name) => SKIPPED_DIRS.has(name),
  );
  return ['tsconfig.json', 'package-lock.json', ...files];
}

const inputsHash = () => hashFiles(repoRoot, inputFiles(), require('typescript/package.json').version);
let inputs = inputsHash();
if (fs.existsSync(STAMP) && fs.readFileSync(STAMP, 'utf8') === inputs) {
  console.log('typecheck: nothing changed since it last passed');
  process.exit(0);
}
// The API types derive from the route schemas (a stage added to the table adds a phase to them):
// brought up to date first, so a change needs no separate step before its types check.
const regenerated = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/write-api-types.ts'], {
  cwd: repoRoot,
  stdio: 'inherit',
});
if (regenerated.status !== 0) process.exit(regenerated.status ?? 1);
inputs = inputsHash();
const tscRun = (project, buildInfo) =>
  spawnSync(
    process.execPath,
    [
      require.resolve('typescript/bin/tsc'),
      ...['-p', project, '--noEmit', '--incremental', '--tsBuildInfoFile', buildInfo],
      ...process.argv.slice(2),
    ],
    { cwd: repoRoot, stdio: 'inherit' },
  );
let tsc = tscRun('tsconfig.json', '.data/tsc.tsbuildinfo');
if (tsc.status === 0) tsc = tscRun('web/tsconfig.json', '.data/tsc-web.tsbuildinfo');
if (tsc.status === 0) {
  fs.mkdirSync(path.dirname(STAMP), { recursive: true });
  fs.writeFileSync(STAMP, inputs);
}
process.exit(tsc.status ?? 1);

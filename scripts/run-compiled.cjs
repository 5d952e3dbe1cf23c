#!/usr/bin/env node
// `node scripts/run-compiled.cjs ENTRY [ARGS...]`: runs one of plat's entry points (e.g.
// workers/main.ts) from the compiled copy of the sources, built first when missing
// (docs/architecture.md#compiled-runtime). The container image builds the copy when it is made.
const { runCompiled } = require('./lib/compiled-runtime.cjs');

const entry = process.argv[2];
if (!entry) {
  console.error('usage: node scripts/run-compiled.cjs ENTRY [ARGS...]   (ENTRY e.g. workers/main.ts)');
  process.exit(2);
}
// The entry reads its own arguments from process.argv, as when node runs it directly.
process.argv.splice(1, 2, entry);
runCompiled(entry);

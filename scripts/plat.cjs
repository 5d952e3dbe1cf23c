#!/usr/bin/env node
// `plat` on PATH (npm link / npm install -g): runs the CLI from the compiled copy of plat's sources,
// built first when the sources changed (docs/architecture.md#compiled-runtime).
require('./lib/compiled-runtime.cjs').runCompiled('gateway/cli/main.ts');

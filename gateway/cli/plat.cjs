#!/usr/bin/env node
// `plat` on PATH (npm link / npm install -g): runs the TypeScript CLI through tsx.
require('tsx/cjs');
require('./main.ts');

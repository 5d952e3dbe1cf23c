#!/usr/bin/env node
// Run after `npm install` changes the lockfile: `node scripts/lockfile-add-foreign-optionals.js`.
// One-off: the registry reachable here serves only this platform's optional binaries, so npm writes a
// lockfile without the others and `npm ci` then calls it out of sync. Add the missing entries with
// os/cpu so npm skips them on Linux and resolves them normally elsewhere.
const fs = require('fs');
const lock = JSON.parse(fs.readFileSync('package-lock.json', 'utf8'));
const pk = lock.packages;
const osOf = (n) =>
  ['darwin', 'win32', 'android', 'freebsd', 'openharmony', 'linux', 'sunos', 'aix', 'netbsd', 'openbsd'].find(
    (o) => n.includes(o),
  );
const cpuOf = (n) =>
  ['arm64', 'x64', 'ia32', 'ppc64', 's390x', 'riscv64', 'loong64', 'arm', 'wasm32'].find(
    (c) =>
      new RegExp(`-${c}(-|$)`).test(n.replace(/^.*\//, '-')) || n.includes(`-${c}-`) || n.endsWith(`-${c}`),
  );
let added = 0;
for (const [path, meta] of Object.entries(pk)) {
  for (const [dep, ver] of Object.entries(meta.optionalDependencies || {})) {
    const key = `node_modules/${dep}`;
    if (pk[key] || pk[`${path}/node_modules/${dep}`]) continue;
    const entry = { version: ver, optional: true };
    const os = osOf(dep);
    const cpu = cpuOf(dep);
    if (os) entry.os = [os === 'openharmony' ? 'openharmony' : os];
    if (cpu) entry.cpu = [cpu];
    if (dep.includes('musl')) entry.libc = ['musl'];
    else if (dep.includes('gnu') && os === 'linux') entry.libc = ['glibc'];
    pk[key] = entry;
    added++;
    console.log(key, JSON.stringify(entry));
  }
}
fs.writeFileSync('package-lock.json', JSON.stringify(lock, null, 2) + '\n');
console.log('added', added);

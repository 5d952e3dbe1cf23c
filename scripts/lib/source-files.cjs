// The repository's files as the compiled runtime and the type check's stamp see them: listed under
// some folders, relative to the repository and sorted, and hashed by name and content.
'use strict';
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');

/**
 * Files under `dirs` (relative to `root`; missing folders are ignored) whose name `wanted` accepts,
 * not descending into a folder `skipDir(relativePath, name)` refuses.
 */
function walkFiles(root, dirs, wanted, skipDir) {
  const files = [];
  const walk = (dir) => {
    for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const rel = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!skipDir(rel, entry.name)) walk(rel);
      } else if (wanted(entry.name)) files.push(rel);
    }
  };
  for (const dir of dirs) if (fs.existsSync(path.join(root, dir))) walk(dir);
  return files.sort();
}

/** SHA-256 (hex) of `seed` and each file's name and content (a missing file counts by name alone). */
function hashFiles(root, files, seed) {
  const hash = crypto.createHash('sha256').update(seed);
  for (const file of files) {
    const full = path.join(root, file);
    hash.update(file).update('\0');
    if (fs.existsSync(full)) hash.update(fs.readFileSync(full));
  }
  return hash.digest('hex');
}

module.exports = { hashFiles, walkFiles };

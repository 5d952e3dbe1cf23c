/**
 * Regenerates the client types in shared/generated/ from the services' OpenAPI documents
 * (`npm run api:types`, and `npm run typecheck` before it checks the types); a file already current
 * is left as it is. With `--check`, writes nothing and exits 1 naming each stale file.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { generatedApiTypes } from './lib/api-types';
import { repoRoot } from '../shared/paths';

void (async () => {
  const check = process.argv.includes('--check');
  let stale = 0;
  for (const { file, text } of await generatedApiTypes()) {
    const name = path.relative(repoRoot, file);
    const current = fs.existsSync(file) && fs.readFileSync(file, 'utf8') === text;
    if (current) continue;
    if (check) {
      console.error(`${name} is stale: run npm run api:types`);
      stale++;
      continue;
    }
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
    console.log(`wrote ${name} (${text.length} characters)`);
  }
  process.exitCode = stale ? 1 : 0;
})();

/** Regenerates `.env.example` from the settings in shared/config.ts (`npm run env:example`). */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { settingDefault, settings } from '../shared/config';
import { repoRoot } from '../shared/paths';

const lines = [
  '# plat settings. Copy to .env or export them; every variable is optional.',
  '# Run `npm start -- --help` for the same list. Regenerate with `npm run env:example`.',
  '',
];
for (const [name, s] of Object.entries(settings)) {
  const def = settingDefault(name as keyof typeof settings);
  lines.push(`# ${s.help}`, `# ${name}=${def ?? ''}`, '');
}
fs.writeFileSync(path.join(repoRoot, '.env.example'), lines.join('\n'));

/**
 * `npm run monitoring:rules`: writes the shipped Prometheus rules file from the alarm catalog.
 * With `--check`, writes nothing and exits 1 when the shipped file is not the current rendering.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { renderAlertRules } from '../domain/monitoring/alert-rules';
import { repoRoot } from '../shared/paths';

export const SHIPPED_RULES_FILE = path.join(repoRoot, 'scripts', 'monitoring', 'plat-alerts.rules.yml');

/** The shipped file's content: the rendering in the repository's YAML style. */
export async function shippedAlertRules(): Promise<string> {
  // Loaded here, not at the top: jest imports this module for the path only, and prettier is ESM.
  const prettier = await import('prettier');
  const options = await prettier.resolveConfig(SHIPPED_RULES_FILE);
  return prettier.format(renderAlertRules(), { ...options, filepath: SHIPPED_RULES_FILE });
}

if (require.main === module) {
  void shippedAlertRules().then((text) => {
    const file = path.relative(process.cwd(), SHIPPED_RULES_FILE);
    if (process.argv.includes('--check')) {
      const current = fs.readFileSync(SHIPPED_RULES_FILE, 'utf8') === text;
      console.log(current ? `${file} is current` : `${file} is stale: run npm run monitoring:rules`);
      process.exit(current ? 0 : 1);
    }
    fs.writeFileSync(SHIPPED_RULES_FILE, text);
    console.log(`wrote ${file}`);
  });
}

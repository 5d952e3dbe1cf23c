import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseEnv } from 'node:util';
import { ConfigError, loadConfig, type PlatConfig } from './config';
import { repoRoot } from './paths';

/** Adds the variables of `<repo>/.env`, if present, without overriding the real environment. */
export function loadDotEnv(file = path.join(repoRoot, '.env')): void {
  if (!fs.existsSync(file)) return;
  for (const [name, value] of Object.entries(parseEnv(fs.readFileSync(file, 'utf8')))) {
    if (process.env[name] === undefined) process.env[name] = value;
  }
}

/** For process entry points: `.env` plus the environment, validated; or the problems and exit 1. */
export function loadConfigOrExit(): PlatConfig {
  loadDotEnv();
  try {
    return loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
}

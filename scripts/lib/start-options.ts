/** Command-line options of `npm start` and the help text listing every setting. */
import { settingDefault, settings } from '../../shared/config';

export interface StartOptions {
  help: boolean;
  withOpenSearch: boolean;
  withDemoDb: boolean;
}

export function parseStartArgs(argv: string[]): StartOptions {
  const opts: StartOptions = { help: false, withOpenSearch: false, withDemoDb: false };
  for (const arg of argv) {
    if (arg === '--help' || arg === '-h') opts.help = true;
    else if (arg === '--with-opensearch') opts.withOpenSearch = true;
    else if (arg === '--with-demo-db') opts.withDemoDb = true;
    else throw new Error(`unknown option ${arg} (see npm start -- --help)`);
  }
  return opts;
}

export function startHelp(): string {
  const rows = Object.entries(settings).map(([name, s]) => {
    const def = settingDefault(name as keyof typeof settings);
    return `  ${name.padEnd(26)} ${s.help}${def !== undefined ? ` [default: ${def}]` : ''}`;
  });
  return [
    'Usage: npm start [-- options]',
    '',
    'Starts the whole platform on embedded defaults: the Temporal dev server (unless TEMPORAL_ADDRESS',
    'is set), the worker, the gateway and the memory service. Ctrl-C stops everything.',
    '',
    'Options:',
    '  --with-opensearch          also start a local OpenSearch with the ISM plugin (from Maven Central)',
    '  --with-demo-db             also start a private MariaDB loaded with the Sakila sample database',
    '  --help                     show this text',
    '',
    'Settings (environment variables; see .env.example):',
    ...rows,
  ].join('\n');
}

/** Command-line options of `npm start` and the help text listing every setting. */
import { settingDefault, settings } from '../../shared/config';

export interface StartOptions {
  help: boolean;
  withOpenSearch: boolean;
  withDemoDb: boolean;
  /** Also load the schema zoo's small `zoo_*` databases into the demo MariaDB (docs/offline-analyst.md). */
  withZoo: boolean;
  /** Also Prometheus and Alertmanager with plat's alarms. */
  withMonitoring: boolean;
  /** A private PostgreSQL as the shared metadata store (docs/fleet.md). */
  withPostgres: boolean;
  /** Size of the generated demo database (1 ≈ 8,000 orders); only with `withDemoDb`. */
  demoScale: number;
}

/** Larger demo databases take minutes to generate and load; nobody needs one for a demo. */
const MAX_DEMO_SCALE = 100;

export function parseStartArgs(argv: string[]): StartOptions {
  const opts: StartOptions = {
    help: false,
    withOpenSearch: false,
    withDemoDb: false,
    withZoo: false,
    withMonitoring: false,
    withPostgres: false,
    demoScale: 1,
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--help' || arg === '-h') opts.help = true;
    else if (arg === '--with-opensearch') opts.withOpenSearch = true;
    else if (arg === '--with-demo-db') opts.withDemoDb = true;
    else if (arg === '--with-zoo') opts.withZoo = opts.withDemoDb = true;
    else if (arg === '--with-monitoring') opts.withMonitoring = true;
    else if (arg === '--with-postgres') opts.withPostgres = true;
    else if (arg === '--demo-scale' || arg.startsWith('--demo-scale=')) {
      const value = arg === '--demo-scale' ? argv[++i] : arg.slice('--demo-scale='.length);
      opts.demoScale = parseDemoScale(value);
      // Asking for a size means asking for the database.
      opts.withDemoDb = true;
    } else throw new Error(`unknown option ${arg} (see npm start -- --help)`);
  }
  return opts;
}

function parseDemoScale(value: string | undefined): number {
  const scale = value === undefined || value.trim() === '' ? NaN : Number(value);
  if (!Number.isFinite(scale) || scale <= 0 || scale > MAX_DEMO_SCALE) {
    throw new Error(
      `--demo-scale needs a number greater than 0 and at most ${MAX_DEMO_SCALE} (1 ≈ 8,000 orders), got ${value === undefined ? 'nothing' : `"${value}"`}`,
    );
  }
  return scale;
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
    '  --with-demo-db             also start a private MariaDB with database demo_store: three years of an',
    '                             outdoor-gear retailer (orders, lines, payments, shipments, returns), generated',
    '                             up to yesterday; regenerated when the day, scale or generator changes',
    '  --demo-scale N             size of demo_store, N > 0 (default 1 ≈ 8,000 orders and 20,000 order lines;',
    '                             0.1 for a tiny one); implies --with-demo-db',
    '  --with-zoo                 also load the schema zoo into that MariaDB: small zoo_* databases in the',
    '                             shapes real sources take (yearly tables, star schemas with a calendar and',
    '                             roll-ups, text money...); implies --with-demo-db',
    '  --with-monitoring          also start Prometheus and Alertmanager (Debian packages) with the eight',
    '                             alarms; alarms reach the web pages, and ALERT_EMAIL by mail when it is set',
    '  --with-postgres            keep the metadata (projects, events, users, secrets) in a private',
    '                             PostgreSQL (Debian package, port PLAT_POSTGRES_PORT) that other hosts can',
    '                             share, instead of a file under the data directory; see docs/fleet.md',
    '  --help                     show this text',
    '',
    'Settings (environment variables; see .env.example):',
    ...rows,
  ].join('\n');
}

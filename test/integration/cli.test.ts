/** The `plat` CLI against the real gateway, worker and Sakila, as a user types it. */
import { PLAT_CLI, runPlat } from '../harness/plat-cli';
import * as os from 'node:os';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { metadataDbPath, openMetadataDb } from '../../domain/metadata-store/metadata-db';
import { PHASES } from '../../shared/project-model';
import { insertLegacyProject, legacyProjectRecord } from '../fixtures/legacy-project-view';
import { harness } from '../harness/harness-state';
import { platformStackPerSuite } from '../harness/platform-stack';

const TASK_QUEUE = 'cli-test';

describe('plat CLI', () => {
  const platform = platformStackPerSuite(TASK_QUEUE);
  let env: NodeJS.ProcessEnv;

  beforeAll(() => {
    const { gateway, dataDir } = platform.current;
    env = {
      ...process.env,
      PLAT_URL: gateway.base,
      PLAT_CREDENTIALS_FILE: path.join(dataDir, 'credentials.json'),
      PLAT_TOKEN: '',
    };
    delete env.PLAT_TOKEN;
  });

  /** Runs the CLI without blocking this process, which also serves the gateway it talks to. */
  const run = (args: string[], extraEnv: NodeJS.ProcessEnv = {}) => runPlat(args, { ...env, ...extraEnv });
  const plat = (...args: string[]) => run(args);

  it('signs up, creates a project, watches it to the gate, approves it, and reads its log', async () => {
    const signup = await plat('signup', '--username', 'erin', '--password', 'erin-password');
    expect(signup.stderr).toBe('');
    expect(signup.stdout).toContain('signed in');
    expect(fs.statSync(env.PLAT_CREDENTIALS_FILE!).mode & 0o777).toBe(0o600);

    const { port, user, password } = harness().mariadb;
    const created = await run(
      [
        'projects',
        'create',
        '--jdbc-url',
        `jdbc:mysql://127.0.0.1:${port}/sakila`,
        '--username',
        user,
        '--json',
      ],
      { PLAT_SOURCE_PASSWORD: password },
    );
    expect(created.status).toBe(0);
    const projectId = JSON.parse(created.stdout).project_id as string;

    // watch runs until the project ends: it sees the gate, then the approval given from another shell.
    const watcher = spawn(process.execPath, [PLAT_CLI, 'projects', 'watch', projectId], { env });
    let screen = '';
    watcher.stdout.on('data', (d) => (screen += d));
    const watchExit = new Promise<number | null>((r) => watcher.on('exit', r));
    for (let i = 0; i < 200 && !screen.includes('decide: plat projects'); i++)
      await new Promise((r) => setTimeout(r, 100));
    expect(screen).toContain('? prd');
    expect(screen).toContain(`decide: plat projects approve|reject ${projectId}`);

    const approve = await plat('projects', 'approve', projectId);
    expect(approve.stdout).toContain('approve accepted');
    expect(await watchExit).toBe(0);
    expect(screen).toContain('[project_completed]');
    expect(screen).toMatch(/✔ prd\s+completed/);

    expect((await plat('projects', 'list')).stdout).toMatch(new RegExp(`${projectId}\\s+completed`));
    const shown = (await plat('projects', 'show', projectId)).stdout;
    expect(shown).toContain('PRD: DVD rental / retail analytics for sakila');
    // Every phase on its line: completed, with the time it took (from phase_details).
    for (const phase of PHASES) expect(shown).toMatch(new RegExp(`✔ ${phase}\\s+completed\\s+\\d+\\.\\ds`));
    const json = JSON.parse((await plat('projects', 'show', projectId, '--json')).stdout) as {
      phases: Record<string, unknown>;
      phase_details: Record<string, { started_at?: string; ended_at?: string }>;
    };
    for (const phase of PHASES) {
      expect(json.phases[phase]).toBe('completed');
      expect(json.phase_details[phase]).toMatchObject({
        started_at: expect.any(String),
        ended_at: expect.any(String),
      });
    }
    expect((await plat('projects', 'logs', projectId)).stdout).toMatch(
      /count_rows\s+\{"table":"rental"\}\s+16044 rows/,
    );

    // The warehouse's reports and SQL access, in the terminal.
    const quality = (await plat('projects', 'report', projectId, 'quality')).stdout;
    expect(quality).toMatch(/^\d+\/\d+ rules passed/);
    expect(quality).toMatch(/warning\s+failed\s+rental has recent rental_date/);
    const sql = await plat(
      'projects',
      'query',
      projectId,
      '--sql',
      'SELECT SUM(rental_count) AS rentals FROM ads_rental_kpi_daily',
    );
    expect(sql.stdout).toMatch(/RENTALS\n16044\n\(1 rows/);
    // A long answer into a pipe arrives whole (the CLI once exited with 64 KB of it written).
    const long = await plat(
      'projects',
      'query',
      projectId,
      '--layer',
      'ods',
      '--json',
      '--sql',
      'SELECT * FROM ods_rental',
    );
    expect([long.status, long.stderr]).toEqual([0, '']);
    expect(long.stdout.length).toBeGreaterThan(2 * 65_536);
    const answer = JSON.parse(long.stdout) as { rows: unknown[]; row_count?: number };
    expect(answer.rows.length).toBeGreaterThan(100);
    const out = path.join(os.tmpdir(), `plat-cli-pipeline-${Date.now()}`);
    const pipeline = await plat('projects', 'report', projectId, 'pipeline', '--out', out);
    expect(pipeline.stdout).toContain(`files to ${out}`);
    expect(fs.readFileSync(path.join(out, 'sql', 'model', 'ads.sql'), 'utf8')).toContain(
      'ads_rental_kpi_daily',
    );
    fs.rmSync(out, { recursive: true, force: true });
    // The same warehouse as a dbt project: its own root, models by layer.
    const dbt = await plat('projects', 'report', projectId, 'dbt', '--out', out);
    expect(dbt.stdout).toContain(`files to ${out}`);
    expect(fs.readFileSync(path.join(out, 'dbt_project.yml'), 'utf8')).toContain('profile: plat');
    expect(fs.readFileSync(path.join(out, 'models', 'ads', 'ads_rental_kpi_daily.sql'), 'utf8')).toContain(
      "{{ ref('dws_rental_daily') }}",
    );
    fs.rmSync(out, { recursive: true, force: true });
    const unknown = await plat('projects', 'report', projectId, 'weather');
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain('report kind must be one of');
    // Brought up to date with its source: nothing changed, so the rows stay as they were.
    expect((await plat('projects', 'freshness', projectId)).stdout).toContain('never refreshed');
    const refreshed = await plat('projects', 'refresh', projectId, '--wait');
    expect(refreshed.status).toBe(0);
    expect(refreshed.stdout).toMatch(/last refresh \S+ \(manual\): completed/);
    // The list says how fresh each project's data is.
    const listed = (await plat('projects', 'list')).stdout;
    // Created at, then data as of: two times on its line.
    expect(listed).toMatch(new RegExp(`${projectId}\\s.*\\dZ\\s+\\d{4}-\\d\\d-\\d\\dT\\S+Z\\s`));
    expect(listed).not.toContain('STALE');
    expect(refreshed.stdout).toMatch(/rental\s+changes\s+\d+\s+16044\s+16044\s+0/);
    // A range of days rebuilt on demand: every table read again.
    const missing = await plat('projects', 'backfill', projectId, '--from', '2005-05-24');
    expect([missing.status, missing.stderr]).toEqual([
      2,
      expect.stringContaining('--from YYYY-MM-DD --to YYYY-MM-DD'),
    ]);
    const backfilled = await plat(
      'projects',
      'backfill',
      projectId,
      '--from',
      '2005-05-24',
      '--to',
      '2005-05-31',
      '--wait',
    );
    expect(backfilled.status).toBe(0);
    expect(backfilled.stdout).toMatch(/\(backfill of 2005-05-24 to 2005-05-31\): completed/);
    expect(backfilled.stdout).toMatch(/rental\s+whole\s+16044\s+16044\s+16044\s+0/);
    // The eight days computed again in the tables rebuilt by day, and said.
    expect(backfilled.stdout).toMatch(/dws\.\w+\s+\d+\s+8 days of \w+/);
  });

  it('answers --help for every command and subcommand with exit 0, naming that command', async () => {
    const commands = [
      ['--help'],
      ['projects', '--help'],
      ['projects', 'report', '-h'],
      ['index', '--help'],
      ['index', 'bootstrap', '--help'],
      ['index', 'terms', '--help'],
      ['memory', '--help'],
      ['memory', 'search', '--help'],
      ['retention', '--help'],
      ['users', '--help'],
      ['users', 'grant', '--help'],
    ];
    const answers = await Promise.all(commands.map((c) => plat(...c)));
    answers.forEach((a, i) => {
      const named = commands[i].filter((w) => !w.startsWith('-')).join(' ');
      expect([commands[i].join(' '), a.status, a.stderr]).toEqual([commands[i].join(' '), 0, '']);
      expect(a.stdout).toContain(named ? `  ${named}` : 'Usage: plat');
    });
  });

  it('shows a project stored by an older version (phases as objects)', async () => {
    const owner = (
      JSON.parse((await plat('projects', 'list', '--json')).stdout) as { projects: { project_id: string }[] }
    ).projects[0];
    const ownerId = (
      JSON.parse((await plat('projects', 'show', owner.project_id, '--json')).stdout) as { owner_id: string }
    ).owner_id;
    const legacyId = `proj-20261120-legacy${Date.now().toString(36)}`;
    await insertLegacyProject(
      await openMetadataDb(metadataDbPath(platform.current.dataDir)),
      legacyProjectRecord(legacyId, ownerId),
    );
    const shown = await plat('projects', 'show', legacyId);
    expect(shown.status).toBe(0);
    expect(shown.stdout).toContain(`${legacyId}  terminated  (8/8 phases)`);
    expect(shown.stdout).toMatch(/✔ prd\s+completed\s+600\.0s\s+PRD rejected/);
    expect(shown.stdout).toMatch(/- data_ingestion\s+skipped\s+PRD rejected/);
  });

  it('explains errors: a second decision, a bad file, no login', async () => {
    const list = JSON.parse((await plat('projects', 'list', '--json')).stdout) as {
      projects: { project_id: string }[];
    };
    const again = await plat('projects', 'approve', list.projects[0].project_id);
    expect(again.status).toBe(1);
    expect(again.stderr).toMatch(/no PRD is waiting for a decision/);
    const noFile = await plat('projects', 'modify', list.projects[0].project_id);
    expect(noFile.status).toBe(2);
    expect(noFile.stderr).toContain('missing --file');
    const anonymous = await run(['projects', 'list'], {
      PLAT_CREDENTIALS_FILE: '/nonexistent/credentials.json',
    });
    expect(anonymous.status).toBe(1);
    expect(anonymous.stderr).toContain('run `plat login`');
  });
});

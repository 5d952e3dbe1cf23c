/** The `plat` CLI against the real gateway, worker and Sakila, as a user types it. */
import * as os from 'node:os';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { dataDirDeps } from '../../activities';
import { repoRoot } from '../../shared/paths';
import { harness } from '../harness/harness-state';
import { newTestDataDir, startTestGateway, type TestGateway } from '../harness/platform-gateway';
import { devServerWithPlatformWorker, type DevServerWithWorker } from '../harness/temporal-envs';

const TASK_QUEUE = 'cli-test';
const CLI = path.join(repoRoot, 'gateway', 'cli', 'plat.cjs');

describe('plat CLI', () => {
  let stack: DevServerWithWorker;
  let gateway: TestGateway;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    const dataDir = newTestDataDir();
    stack = await devServerWithPlatformWorker(TASK_QUEUE, dataDirDeps(dataDir));
    gateway = await startTestGateway({ client: stack.env.client, taskQueue: TASK_QUEUE, dataDir });
    env = {
      ...process.env,
      PLAT_URL: gateway.base,
      PLAT_CREDENTIALS_FILE: path.join(dataDir, 'credentials.json'),
      PLAT_TOKEN: '',
    };
    delete env.PLAT_TOKEN;
  });
  afterAll(async () => {
    await gateway?.stop();
    await stack?.stop();
  });

  /** Runs the CLI without blocking this process, which also serves the gateway it talks to. */
  const run = (args: string[], extraEnv: NodeJS.ProcessEnv = {}) =>
    new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, [CLI, ...args], { env: { ...env, ...extraEnv } });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d) => (stdout += d));
      child.stderr.on('data', (d) => (stderr += d));
      child.on('exit', (status) => resolve({ status, stdout, stderr }));
    });
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
    const watcher = spawn(process.execPath, [CLI, 'projects', 'watch', projectId], { env });
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
    expect((await plat('projects', 'show', projectId)).stdout).toContain(
      'PRD: DVD rental / retail analytics for sakila',
    );
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
    const out = path.join(os.tmpdir(), `plat-cli-pipeline-${Date.now()}`);
    const pipeline = await plat('projects', 'report', projectId, 'pipeline', '--out', out);
    expect(pipeline.stdout).toContain(`files to ${out}`);
    expect(fs.readFileSync(path.join(out, 'sql', 'model', 'ads.sql'), 'utf8')).toContain(
      'ads_rental_kpi_daily',
    );
    fs.rmSync(out, { recursive: true, force: true });
    const unknown = await plat('projects', 'report', projectId, 'weather');
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain('report kind must be one of');
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

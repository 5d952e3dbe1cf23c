/** `plat memory ...` against the real memory service (embedded store, real embedding model), as typed. */
import { runPlat } from '../harness/plat-cli';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createMemoryService } from '../../gateway/memory/memory-service-wiring';
import { createMemoryApp } from '../../gateway/memory/memory-app';
import { loadConfig } from '../../shared/config';
import { createLogger } from '../../shared/logger';
import { newTestDataDir } from '../harness/platform-gateway';

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const today = () => new Date().toISOString().slice(0, 10);

describe('plat memory CLI', () => {
  let server: Server;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    const service = await createMemoryService(newTestDataDir(), loadConfig({}));
    const app = createMemoryApp({ apiKeys: [], log: createLogger('memory-cli-test', 'silent'), service });
    server = app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    env = {
      ...process.env,
      PLAT_MEMORY_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      COLUMNS: '160',
    };
    delete env.PLAT_MEMORY_API_KEY;
  });
  afterAll(async () => {
    if (server) await new Promise<void>((r) => server.close(() => r()));
  });

  /** Runs the CLI without blocking this process, which also serves the memory service it talks to. */
  const run = (args: string[], input = '') => runPlat(args, env, input);
  const plat = (...args: string[]) => run(['memory', ...args]);
  /** `plat memory ARGS` exits with `status`, saying `message` on stderr. */
  const expectRefused = async (args: string[], status: number, message: string) => {
    const res = await plat(...args);
    expect(res.status).toBe(status);
    expect(res.stderr).toContain(message);
  };

  it('adds, finds, lists, gets, updates, keeps history, and deletes', async () => {
    const fact = 'The staging database runs on port 5433.';
    const added = await plat('add', '--user', 'ana', '--agent', 'ops', fact);
    expect(added.stderr).toBe('');
    expect(added.status).toBe(0);
    expect(added.stdout).toMatch(/^EVENT\s+ID\s+MEMORY$/m);
    const id = new RegExp(`^ADD\\s+(${UUID})\\s+The staging database runs on port 5433`, 'm').exec(
      added.stdout,
    )![1];
    expect(added.stdout).toMatch(/^token usage: \d+ LLM call\(s\), \d+ input \+ \d+ output = \d+ tokens$/m);
    expect(added.stdout).not.toContain('shared:');

    const again = await plat('add', '--user', 'ana', '--agent', 'ops', fact);
    expect(again.stdout).toMatch(new RegExp(`^NONE\\s+${id}`, 'm'));

    const found = await plat('search', '--user', 'ana', 'which', 'port', 'does', 'staging', 'use?');
    expect(found.status).toBe(0);
    expect(found.stdout).toMatch(/^SCORE\s+ORIGINAL\s+TYPE\s+CREATED\s+ID\s+MATCHED\s+MEMORY$/m);
    // MATCHED: the similarity, and the query terms the memory holds (stemmed).
    expect(found.stdout).toMatch(
      new RegExp(
        // A question for a value now: the best answer scores 1 (docs/memory-search.md#now-and-then).
        `^(?:0\\.\\d{3}|1\\.000)\\s+(?:0\\.\\d{3}|1\\.000)\\s+long_term\\s+${today()}\\s+${id.slice(0, 8)}\\s+sim 0\\.\\d\\d terms (port,staging|staging,port)\\s+The staging database`,
        'm',
      ),
    );
    const plain = await plat('search', '--user', 'ana', '--no-decay', '--top-k', '1', 'staging port');
    expect(plain.stdout).toMatch(/^SCORE\s+TYPE\s+CREATED/m);
    expect(plain.stdout).toContain('1 result(s)');
    const lexical = await plat('search', '--user', 'ana', '--mode', 'lexical', '--no-decay', 'port 5433');
    expect(lexical.stdout).toMatch(/\sterms port,5433\s+The staging database/);
    expect(lexical.stdout).not.toContain('sim ');

    await plat(
      'add',
      '--user',
      'ana',
      '--run-id',
      today(),
      '--no-infer',
      'Today the staging database was slow.',
    );
    const combined = await plat('search-combined', '--user', 'ana', '--recent-days', '2', 'staging database');
    expect(combined.status).toBe(0);
    expect(combined.stdout).toMatch(/\slong_term\s.*port 5433/);
    expect(combined.stdout).toMatch(/\sshort_term\s.*was slow/);

    const list = await plat('list', '--user', 'ana');
    expect(list.stdout).toMatch(new RegExp(`^${id}\\s+${today()}\\s+long-term\\s+ops\\s+The staging`, 'm'));
    expect(list.stdout).toMatch(new RegExp(`\\s${today()}\\s+\\s*Today the staging`));
    expect(list.stdout).toContain('2 memories');
    const shortOnly = await plat('list', '--user', 'ana', '--run-id', today());
    expect(shortOnly.stdout).toContain('1 memory');

    expect((await plat('get', id)).stdout).toMatch(/^memory:\s+The staging database runs on port 5433\.$/m);
    const updated = await plat('update', id, 'The staging database runs on port 6543.');
    expect(updated.stdout).toBe(`updated ${id}: The staging database runs on port 6543.\n`);
    const history = (await plat('history', id)).stdout.split('\n');
    expect(history[0]).toMatch(/^WHEN\s+EVENT\s+CHANGE$/);
    expect(history[1]).toMatch(
      /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\s+ADD\s+— → The staging database runs on port 5433\.$/,
    );
    expect(history[2]).toMatch(
      /\sUPDATE\s+The staging database runs on port 5433\. → The staging .* port 6543\.$/,
    );

    expect((await plat('delete', id)).stdout).toBe(`deleted ${id}\n`);
    const gone = await plat('get', id);
    expect(gone.status).toBe(1);
    expect(gone.stderr).toContain(`no memory with id ${id}`);
  });

  it('shows what changed and answers what held then', async () => {
    const first = await plat('add', '--user', 'zoe', 'My gym is Iron Temple.');
    expect(first.status).toBe(0);
    const before = new Date().toISOString();
    await new Promise((r) => setTimeout(r, 20));
    expect((await plat('add', '--user', 'zoe', 'New gym: Crunch.')).stdout).toMatch(/^UPDATE\s/m);
    const changes = await plat('changes', '--user', 'zoe');
    expect(changes.stdout).toMatch(/^WHEN\s+MEMORY\s+CHANGE$/m);
    expect(changes.stdout).toContain('My gym is Iron Temple. → New gym: Crunch.');
    const then = await plat('search', '--user', 'zoe', '--as-of', before, 'Which gym do I go to?');
    expect(then.stdout).toContain('My gym is Iron Temple.');
    expect(then.stdout).not.toContain('Crunch');
    expect((await plat('list', '--user', 'zoe', '--as-of', before)).stdout).toContain('Iron Temple');
    expect((await plat('changes', '--user', 'nobody')).stdout.trim()).toBe('no value changed');
    const bad = await plat('search', '--user', 'zoe', '--as-of', 'last tuesday', 'gym');
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/as_of/);
  });

  it('prints the raw response with --json, and reads the text from stdin', async () => {
    const added = await run(
      ['memory', 'add', '--user', 'hal', '--no-infer', '--json'],
      'Hal deploys on Mondays.\n',
    );
    expect(added.status).toBe(0);
    const body = JSON.parse(added.stdout) as {
      results: { id: string; event: string }[];
      token_usage: object;
    };
    expect(body.results).toEqual([
      expect.objectContaining({ event: 'ADD', memory: 'Hal deploys on Mondays.' }),
    ]);
    expect(body.token_usage).toMatchObject({ llm_calls: 0 });
    const id = body.results[0].id;
    for (const args of [
      ['list', '--user', 'hal'],
      ['search', '--user', 'hal', 'deploy day'],
      ['search-combined', '--user', 'hal', 'deploy day'],
      ['history', id],
    ])
      expect(
        (JSON.parse((await plat(...args, '--json')).stdout) as { results: unknown[] }).results.length,
      ).toBe(1);
    expect(JSON.parse((await plat('get', id, '--json')).stdout)).toMatchObject({ id, user_id: 'hal' });
    expect(JSON.parse((await plat('delete', id, '--json')).stdout)).toEqual({
      message: 'memory deleted',
      id,
    });
  });

  it('copies long-term experience memories to the shared space once', async () => {
    const fact = 'Restarting the queue worker fixes stuck exports.';
    const fayAdds = (...args: string[]) => plat('add', '--user', 'fay', ...args);
    const first = await fayAdds('--agent', 'ops', '--category', 'experience', '--no-infer', fact);
    expect(first.status).toBe(0);
    expect(first.stdout).toMatch(new RegExp(`^shared: added \\(${UUID}\\)$`, 'm'));
    const other = await plat('add', '--user', 'gus', '--category', 'experience', '--no-infer', fact);
    expect(other.stdout).toMatch(/^ADD\s/m);
    expect(other.stdout).toMatch(new RegExp(`^shared: already there \\(${UUID}\\)$`, 'm'));
    // The same fact again for fay is NONE: nothing to share.
    const repeat = await fayAdds('--agent', 'ops', '--category', 'experience', '--no-infer', fact);
    expect(repeat.stdout).toMatch(/^NONE\s/m);
    expect(repeat.stdout).not.toContain('shared:');
    // Short-term and other categories stay private.
    const daily = await fayAdds('--run-id', today(), '--category', 'experience', 'Exports were stuck today.');
    expect(daily.stdout).not.toContain('shared:');
    const project = await fayAdds('--category', 'project', '--no-infer', 'Fay is on call this week.');
    expect(project.stdout).not.toContain('shared:');

    const shared = JSON.parse((await plat('list', '--user', 'shared', '--json')).stdout) as {
      results: { memory: string; agent_id: string | null; metadata: Record<string, unknown> }[];
    };
    expect(shared.results).toHaveLength(1);
    expect(shared.results[0]).toMatchObject({
      memory: fact,
      agent_id: null,
      metadata: { category: 'experience', shared_from: { user_id: 'fay', agent_id: 'ops' } },
    });
    const seen = await plat('search', '--user', 'ivy', 'exports are stuck');
    expect(seen.stdout).toMatch(/\sshared\s.*Restarting the queue worker/);
  });

  it('explains errors: server validation (1), usage (2), no server (1)', async () => {
    const badDay = await plat('add', '--user', 'ana', '--run-id', '2026-02-30', 'x');
    expect(badDay.status).toBe(1);
    expect(badDay.stderr).toMatch(/^ {2}run_id: a real calendar date YYYY-MM-DD$/m);
    await expectRefused(['search', '--user', 'ana', '--min-score', '1.5', 'q'], 1, 'min_score');

    await expectRefused(['add', 'some text'], 2, 'missing --user');
    await expectRefused(['search', '--user', 'ana'], 2, 'missing the query');
    await expectRefused(['add', '--user', 'ana'], 2, 'missing the text');
    await expectRefused(
      ['search', '--user', 'ana', '--mode', 'fuzzy', 'q'],
      2,
      '--mode must be one of semantic, lexical, hybrid',
    );
    await expectRefused(['search', '--user', 'ana', '--top-k', 'many', 'q'], 2, '--top-k must be a number');
    await expectRefused(
      ['add', '--user', 'ana', '--metadata', '[1]', 'x'],
      2,
      '--metadata must be a JSON object',
    );
    await expectRefused(['forget', 'x'], 2, 'unknown subcommand memory forget');

    const down = await plat('list', '--user', 'ana', '--memory-url', 'http://127.0.0.1:9');
    expect(down.status).toBe(1);
    expect(down.stderr).toContain('cannot reach http://127.0.0.1:9');
    expect(down.stderr).toContain('is the memory service running');
  });
});

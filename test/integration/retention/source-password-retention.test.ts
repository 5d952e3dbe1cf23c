/**
 * The retention pass deletes projects' source passwords from both parameter stores (the data
 * directory's files beside SQLite, the `secrets` table of a shared PostgreSQL): an ended project's
 * once it has been over for the period, one whose project the metadata store does not have once it
 * is as old, a refreshed one's once its last refresh is; a running project's, one refreshing on a
 * schedule and plat's own parameters stay. A dry run lists and keeps them, a
 * second pass is a no-op, and the report counts them without holding a value.
 */
import { MockActivityEnvironment } from '@temporalio/testing';
import { randomBytes } from 'node:crypto';
import * as path from 'node:path';
import { createRetentionActivities } from '../../../activities/retention/retention-activities';
import { ProjectStore } from '../../../domain/metadata-store/project-store';
import { DAY_MS } from '../../../domain/retention/retention-periods';
import type { RetentionReport } from '../../../domain/retention/retention-report';
import { openParameterStore } from '../../../domain/secrets/open-parameter-store';
import type { ParameterStore } from '../../../domain/secrets/parameter-store';
import { initialProjectView } from '../../../shared/initial-project-view';
import type { ProjectStatus } from '../../../shared/project-model';
import { newTestDataDir } from '../../harness/platform-gateway';
import { BACKENDS, dataDirOf, storeOpener } from '../metadata-store/backends';

describe.each(BACKENDS)('source passwords in the retention pass on $name', (backend) => {
  const stores = storeOpener(backend);
  afterAll(() => stores.closeAll());

  /** A fresh store, its parameter store, and the retention pass over both at an instant, dry or not. */
  const retentionOn = async (name: string) => {
    const location = await backend.fresh(name);
    const db = await stores.open(location);
    const dataDir = backend.name === 'sqlite' ? dataDirOf(location) : newTestDataDir();
    const secrets: ParameterStore = await openParameterStore(db, dataDir, randomBytes(32).toString('base64'));
    const activities = createRetentionActivities({
      retention: {
        logDir: path.join(dataDir, 'logs'),
        warehouseRoot: path.join(dataDir, 'warehouse'),
        db,
        secrets,
      },
    });
    const pass = (at: number, dryRun: boolean): Promise<RetentionReport> =>
      new MockActivityEnvironment().run(activities.applyRetention, {
        now: new Date(at).toISOString(),
        dry_run: dryRun,
      });
    return { db, secrets, pass };
  };

  test('go once their project has ended for the period, or has no project; the rest stay', async () => {
    const { db, secrets, pass } = await retentionOn('password-retention');
    const projects = new ProjectStore(db);
    const now = Date.now();
    const refs: Record<string, string> = {};
    const values: string[] = [];
    const project = async (id: string, status: ProjectStatus | undefined, daysAgo: number) => {
      const value = `pw-${id}-${randomBytes(6).toString('hex')}`;
      values.push(value);
      refs[id] = await secrets.put(`projects/${id}/db-password`, value);
      if (!status) return;
      const view = initialProjectView({
        project_id: id,
        owner_id: 'u1',
        created_at: new Date(now - 40 * DAY_MS).toISOString(),
        description: id,
        reuse_ods: false,
        source: {
          jdbc_url: 'jdbc:mysql://db.example:3306/shop',
          username: 'reader',
          password_ref: refs[id],
          target: { host: 'db.example', port: 3306, database: 'shop', options: {} },
        },
      });
      await projects.saveProgress(
        { ...view, status, updated_at: new Date(now - daysAgo * DAY_MS).toISOString() },
        [],
      );
    };
    await project('proj-20261101-done10', 'completed', 10);
    await project('proj-20261101-fail10', 'failed', 10);
    await project('proj-20261101-done02', 'cancelled', 2);
    await project('proj-20261101-run030', 'running', 30);
    await project('proj-20261101-orphan', undefined, 0);
    // Ended long ago, but refreshing: on a schedule, or refreshed by hand 3 days ago.
    await project('proj-20261101-sched0', 'completed', 30);
    await project('proj-20261101-fresh3', 'completed', 30);
    await projects.saveRefresh('proj-20261101-sched0', () => ({
      history: [],
      schedule: {
        every: '1d',
        paused: true,
        schedule_id: 'refresh-x',
        updated_at: new Date(now).toISOString(),
      },
    }));
    const refreshed = new Date(now - 3 * DAY_MS).toISOString();
    await projects.saveRefresh('proj-20261101-fresh3', () => ({
      history: [],
      last: { refresh_id: 'r1', trigger: 'manual', status: 'completed', started_at: refreshed },
    }));
    await secrets.put('plat/token-signing-key', 'not a project parameter');

    const targets = (r: RetentionReport) =>
      r.items
        .filter((i) => i.kind === 'source_passwords')
        .map((i) => i.target)
        .sort();
    const stored = async () => (await secrets.list()).map((p) => p.name).sort();

    // A dry run lists the two projects ended 10 days ago and removes nothing.
    const dry = await pass(now, true);
    expect(targets(dry)).toEqual([
      'secret: projects/proj-20261101-done10/db-password',
      'secret: projects/proj-20261101-fail10/db-password',
    ]);
    expect(dry.periods_days.source_passwords).toBe(7);
    expect(await stored()).toHaveLength(8 + (backend.name === 'postgres' ? 1 : 0));

    const today = await pass(now, false);
    expect(today.totals.source_passwords).toEqual({ items: 2, bytes: 0 });
    expect(today.items.find((i) => i.target.includes('done10'))).toMatchObject({
      detail: 'source password of proj-20261101-done10 (project completed)',
      age_days: 10,
    });
    await expect(secrets.get(refs['proj-20261101-done10'])).rejects.toThrow(/no secret stored/);
    await expect(secrets.get(refs['proj-20261101-fail10'])).rejects.toThrow(/no secret stored/);
    expect(await secrets.get(refs['proj-20261101-done02'])).toMatch(/^pw-/);
    // Counts and names only: no password in the report.
    const text = JSON.stringify(today);
    expect(values.filter((v) => text.includes(v))).toEqual([]);

    // Eight days on: the project cancelled 2 days ago, the one refreshed 3 days ago and the orphan
    // go; the running project, the scheduled one and plat's own parameter stay. Another pass then
    // finds nothing.
    const later = await pass(now + 8 * DAY_MS, false);
    expect(targets(later)).toEqual([
      'secret: projects/proj-20261101-done02/db-password',
      'secret: projects/proj-20261101-fresh3/db-password',
      'secret: projects/proj-20261101-orphan/db-password',
    ]);
    expect(later.items.find((i) => i.target.includes('orphan'))?.detail).toBe(
      'source password of proj-20261101-orphan (no such project)',
    );
    expect((await stored()).filter((n) => n !== 'plat/secret-key-check')).toEqual([
      'plat/token-signing-key',
      'projects/proj-20261101-run030/db-password',
      'projects/proj-20261101-sched0/db-password',
    ]);
    expect(targets(await pass(now + 8 * DAY_MS, false))).toEqual([]);

    // Deleting what is gone already (a pass interrupted after its deletions, run again) is no error.
    await expect(secrets.delete(refs['proj-20261101-done10'])).resolves.toBeUndefined();
  });

  test('a project parameter name that is not a project id is data, and matches no project', async () => {
    const { secrets, pass } = await retentionOn('password-retention-hostile');
    await secrets.put(`projects/x' OR '1'='1/db-password`, 'v');
    const report = await pass(Date.now() + 8 * DAY_MS, false);
    expect(report.totals.source_passwords.items).toBe(1);
    expect(await secrets.list()).not.toContainEqual(
      expect.objectContaining({ name: `projects/x' OR '1'='1/db-password` }),
    );
  });
});

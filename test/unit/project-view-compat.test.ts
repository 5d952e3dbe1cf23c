/**
 * Project records in the older phases shape (`{status, started_at, ended_at, message}` per phase)
 * read as today's: `phases` of status strings, timings and messages in `phase_details`.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ProjectStore } from '../../domain/metadata-store/project-store';
import { openMetadataDb, type MetadataDb } from '../../domain/metadata-store/metadata-db';
import { initialProjectView } from '../../shared/initial-project-view';
import { PHASES, type ProjectView } from '../../shared/project-model';
import { normalizePhases, normalizeProjectView } from '../../shared/project-view-compat';
import {
  LEGACY_PHASES_READ,
  insertLegacyProject,
  legacyProjectRecord,
} from '../fixtures/legacy-project-view';

const input = {
  project_id: 'proj-20261122-compat01',
  owner_id: 'user-1',
  created_at: '2026-11-22T10:00:00.000Z',
  description: 'compat',
  reuse_ods: false,
  source: { jdbc_url: 'jdbc:mysql://h/db', username: 'u', password_ref: 'local:x' },
};

describe('project record phases, old and new shape', () => {
  it('a new record has every phase pending with empty details', () => {
    const view = initialProjectView(input);
    expect(view.phases).toEqual(Object.fromEntries(PHASES.map((p) => [p, 'pending'])));
    expect(view.phase_details).toEqual(Object.fromEntries(PHASES.map((p) => [p, {}])));
  });

  it('splits an old record: status strings in phases, timings and messages in phase_details', () => {
    const legacy = legacyProjectRecord('proj-20261120-legacy01', 'user-1');
    const view = normalizeProjectView(legacy);
    expect(view.phases).toEqual(LEGACY_PHASES_READ.phases);
    expect(view.phase_details).toEqual(LEGACY_PHASES_READ.phase_details);
    for (const phase of PHASES) expect(typeof view.phases[phase]).toBe('string');
    // Everything else as it was; phase_details sits right after phases.
    expect(view).toMatchObject({ ...legacy, phases: LEGACY_PHASES_READ.phases });
    const keys = Object.keys(view);
    expect(keys[keys.indexOf('phases') + 1]).toBe('phase_details');
  });

  it('leaves a record already in the new shape as it is', () => {
    const view = initialProjectView(input);
    view.phases.prd = 'completed';
    view.phase_details.prd = { started_at: 'a', ended_at: 'b', message: 'PRD approved' };
    view.phases.data_ingestion = 'running';
    view.phase_details.data_ingestion = { started_at: 'c' };
    expect(normalizeProjectView(structuredClone(view))).toEqual(view);
  });

  it('fills what is missing: absent phases are pending, absent details empty', () => {
    const { phases, phase_details } = normalizePhases({ prd: 'running' }, undefined);
    expect(phases).toEqual({ ...Object.fromEntries(PHASES.map((p) => [p, 'pending'])), prd: 'running' });
    expect(phase_details.data_modeling).toEqual({});
    // Details already given win over what an old-shape phase carries.
    const mixed = normalizePhases(
      { prd: { status: 'completed', started_at: 'old', message: 'old message' } },
      { prd: { started_at: 'new' } },
    );
    expect(mixed.phases.prd).toBe('completed');
    expect(mixed.phase_details.prd).toEqual({ started_at: 'new', message: 'old message' });
  });

  describe('in the metadata database', () => {
    let dir: string;
    let db: MetadataDb;
    let store: ProjectStore;
    beforeAll(async () => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'plat-compat-'));
      db = await openMetadataDb(path.join(dir, 'plat.db'));
      store = new ProjectStore(db);
    });
    afterAll(async () => {
      await db.close();
      fs.rmSync(dir, { recursive: true, force: true });
    });

    it('reads a record stored by an older version in the new shape, one by one and listed', async () => {
      await insertLegacyProject(db, legacyProjectRecord('proj-20261120-legacy02', 'user-2'));
      const view = (await store.getProject('proj-20261120-legacy02'))!;
      expect(view.status).toBe('terminated');
      expect(view.phases).toEqual(LEGACY_PHASES_READ.phases);
      expect(view.phase_details).toEqual(LEGACY_PHASES_READ.phase_details);
      const listed = await store.listProjects('user-2', 10, 0);
      expect(listed.total).toBe(1);
      expect(listed.projects[0].phases).toEqual(LEGACY_PHASES_READ.phases);
      expect(listed.projects[0].phase_details.prd.ended_at).toBe('2026-11-20T09:10:00.000Z');
    });

    it('stores an old-shape view (from a worker of the previous version) in the new shape', async () => {
      const old = {
        ...legacyProjectRecord('proj-20261120-legacy03', 'user-3'),
        updated_at: '2026-11-20T09:20:00.000Z',
      };
      await store.saveProgress(old as unknown as ProjectView, []);
      const row = await db.db
        .selectFrom('projects')
        .select('view_json')
        .where('project_id', '=', 'proj-20261120-legacy03')
        .executeTakeFirstOrThrow();
      const raw = JSON.parse(row.view_json) as ProjectView;
      expect(raw.phases.prd).toBe('completed');
      expect(raw.phase_details.prd.started_at).toBe('2026-11-20T09:00:00.000Z');
    });
  });
});

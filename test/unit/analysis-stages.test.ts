/**
 * The stage table (shared/analysis-stages.ts, docs/architecture.md#the-stage-table): the phases, the
 * phase of each activity and each queue's registrations derive from it, so a stage added to it is
 * registered where it runs, and one whose activity the runner lacks fails to compile; its reports
 * are the report routes, the stored artifact kinds and the kinds the CLI accepts.
 */
import { REPORT_KINDS } from '../../gateway/cli/report-commands';
import {
  ANALYSIS_STAGES,
  PHASE_LABELS,
  PHASE_OF_ACTIVITY,
  PHASES,
  STAGE_REPORTS,
} from '../../shared/analysis-stages';
import { ARTIFACT_KINDS } from '../../shared/warehouse-model';
import { activitiesByQueue, type ActivityGroups } from '../../workers/platform-activities';

/** Activity groups with a stand-in function per name: registration is about names, not behaviour. */
const named = (...names: string[]) => Object.fromEntries(names.map((n) => [n, async () => n]));
const groups = {
  'agent-runner': named(...ANALYSIS_STAGES.flatMap((s) => s.activities), 'warmAgentRunner', 'recordProgress'),
  'memory-pipelines': named('runMemoryDigest'),
  'search-lifecycle': named('runLifecyclePass'),
  'cost-reporter': named('reportCosts'),
  retention: named('applyRetention', 'applyHostRetention'),
  fleet: named('claimProjectHost', 'queryProjectWarehouse'),
  health: named('ping'),
} as unknown as ActivityGroups;

describe('the stage table', () => {
  const queues = activitiesByQueue(groups);
  const registered = (queue: keyof typeof queues) => Object.keys(queues[queue]);

  it('registers each stage’s activities on the queue it runs on, and on the warehouse queue when Athena lets it', () => {
    for (const stage of ANALYSIS_STAGES) {
      for (const activity of stage.activities) {
        expect([stage.phase, registered(stage.queue)]).toEqual([
          stage.phase,
          expect.arrayContaining([activity]),
        ]);
        expect([activity, registered('warehouse').includes(activity)]).toEqual([
          activity,
          stage.anywhereWithAthena,
        ]);
        expect(registered('workflows')).toContain(activity);
        expect(PHASE_OF_ACTIVITY[activity]).toBe(stage.phase);
      }
    }
    // Bookkeeping stays off the stage queues: the PRD never runs on a host, nor the copy on agents.
    expect(registered('host')).not.toContain('generatePrd');
    expect(registered('host')).not.toContain('recordProgress');
    expect(registered('agents')).toEqual(['generatePrd', 'warmAgentRunner']);
  });

  it('serves every stage’s reports: one route and one artifact kind each, all accepted by the CLI', () => {
    const paths = STAGE_REPORTS.map((r) => r.path);
    expect(new Set(paths).size).toBe(paths.length);
    expect(new Set(STAGE_REPORTS.map((r) => r.kind)).size).toBe(paths.length);
    expect(REPORT_KINDS).toEqual([...paths, 'dbt']);
    for (const r of STAGE_REPORTS) expect(ARTIFACT_KINDS).toContain(r.kind);
    expect(STAGE_REPORTS.find((r) => r.path === 'quality')?.phase).toBe('data_governance');
  });

  it('gives the phases in the order they run, each with the label the pages show', () => {
    expect(PHASES).toEqual([
      'prd',
      'data_ingestion',
      'data_modeling',
      'data_governance',
      'query_building',
      'visualization',
      'analytics_advisor',
      'production_pipeline',
    ]);
    expect(PHASE_LABELS.map((p) => p.phase)).toEqual([...PHASES]);
    expect(new Set(PHASE_LABELS.map((p) => p.label)).size).toBe(PHASES.length);
  });
});

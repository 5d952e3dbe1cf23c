/**
 * The example of docs/architecture.md#adding-a-stage, followed through the compiler and the replay of
 * recorded projects: a stage added to the table alone fails to compile, and the errors name what is
 * missing (its activity's registration, its outcome in the workflow); with its activity file and
 * those lines it compiles; a project then runs it, on workflow code bundled from the example (the
 * other stages stand-ins, the example's activity as written); behind its patch (`since`), that code
 * still replays every recorded project, and without it a completed project's history breaks. The
 * files are changed in memory and in a temporary copy only: the repository stays as it is.
 */
import { bundleWorkflowCode, Worker, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import * as fs from 'node:fs';
import * as os from 'node:os';
import path from 'node:path';
import ts from 'typescript';
import type {
  WarehouseActivityDeps,
  WarehouseStageRequest,
} from '../../activities/analysis/warehouse/warehouse-deps';
import { buildOfflinePrd } from '../../domain/agents/offline-analyst/prd-builder';
import { openMetadataDb } from '../../domain/metadata-store/metadata-db';
import { ProjectStore } from '../../domain/metadata-store/project-store';
import type { ArtifactKind } from '../../shared/warehouse-model';
import { historyFromJson } from '../harness/history-json';
import { runStandInProject, SNAPSHOT, standIns } from '../harness/stand-in-project';
import { timeSkippingEnv } from '../harness/temporal-envs';
import { readRecordedHistory, recordedHistoryFiles } from '../harness/recorded-histories';

const ROOT = path.resolve(__dirname, '../..');
const at = (file: string) => path.join(ROOT, file);
const read = (file: string) => ts.sys.readFile(at(file))!;

/** Replaces `find` in `text`, failing loudly if the anchor moved (the example must follow the code). */
function edit(text: string, find: string, insert: (found: string) => string): string {
  expect(text).toContain(find);
  return text.replace(find, insert(find));
}

const parsedFiles = new Map<string, ts.SourceFile>();

/** The compiler's errors for the workflow and the worker's registrations with `overlay` in place. */
function compileErrors(overlay: Record<string, string>): string[] {
  const parsed = ts.getParsedCommandLineOfConfigFile(
    at('tsconfig.json'),
    { noEmit: true },
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      },
    },
  )!;
  const files = new Map(Object.entries(overlay).map(([f, text]) => [at(f), text]));
  const host = ts.createCompilerHost(parsed.options);
  const readFile = host.readFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  host.readFile = (f) => files.get(path.resolve(f)) ?? readFile(f);
  host.fileExists = (f) => files.has(path.resolve(f)) || fileExists(f);
  // Files outside the overlay are parsed once for both compiles.
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (f, language, ...rest) => {
    if (files.has(path.resolve(f))) return getSourceFile(f, language, ...rest);
    const known = parsedFiles.get(f) ?? getSourceFile(f, language, ...rest);
    if (known) parsedFiles.set(f, known);
    return known;
  };
  const roots = [
    at('workflows/analysis/warehouse-stages.ts'),
    at('workers/platform-activities.ts'),
    ...files.keys(),
  ];
  const program = ts.createProgram({ rootNames: roots, options: parsed.options, host });
  // The files the example touches, checked against everything they use: the rest of the project is
  // unchanged and type-checked by `npm test` itself (checking it all here took 25 s of CPU a compile).
  const checked = roots.map((f) => program.getSourceFile(f)!);
  return [
    ...program.getOptionsDiagnostics(),
    ...checked.flatMap((f) => [...program.getSyntacticDiagnostics(f), ...program.getSemanticDiagnostics(f)]),
  ].map(
    (d) =>
      `${d.file ? path.relative(ROOT, d.file.fileName) : ''}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`,
  );
}

/** Step 3 of the example: the stage's entry in the table. */
const tableEntry = edit(
  read('shared/analysis-stages.ts'),
  '] as const satisfies readonly AnalysisStage[];',
  (end) => `  {
    phase: 'data_freshness',
    label: 'Freshness',
    activities: ['checkFreshness'],
    view: 'freshness',
    queue: 'host',
    anywhereWithAthena: true,
    reports: [{ path: 'freshness', kind: 'freshness_report', summary: 'Freshness: each table and its newest row' }],
    options: {
      startToCloseTimeout: '10 minutes',
      retry: { maximumAttempts: 3, initialInterval: '5 seconds', nonRetryableErrorTypes: [] },
    },
    since: 'data-freshness-stage',
  },
${end}`,
);

/** Steps 1 and 2: its summary type, its domain code and activity (one file here), then the lines the compiler asks for. */
const summaryType = `${read('shared/warehouse-model.ts')}
export interface FreshnessSummary { tables: number; stale: string[] }
`;
const activityFile = `import type { FreshnessSummary } from '../../../shared/warehouse-model';
import type { WarehouseActivityDeps, WarehouseStageRequest } from './warehouse-deps';
export async function checkFreshness(
  deps: WarehouseActivityDeps,
  { project_id }: WarehouseStageRequest,
): Promise<FreshnessSummary> {
  await deps.store.putArtifact(project_id, 'freshness_report', { tables: [] });
  return { tables: 0, stale: [] };
}
`;
const registered = edit(
  edit(
    read('activities/analysis/warehouse-activities.ts'),
    "import { buildDashboards } from './warehouse/build-dashboards';",
    (line) => `${line}\nimport { checkFreshness } from './warehouse/check-freshness';`,
  ),
  'generatePipeline,\n',
  (line) => `${line}      checkFreshness,\n`,
);
const outcome = edit(
  read('workflows/analysis/warehouse-stages.ts'),
  '  production_pipeline: {',
  (line) =>
    `  data_freshness: {\n    summary: (f) => \`\${f.stale.length} of \${f.tables} tables stale\`,\n  },\n${line}`,
);
const viewKey = edit(
  read('shared/project-model.ts'),
  '    pipeline?: PipelineSummary;',
  (line) => `${line}\n    freshness?: import('./warehouse-model').FreshnessSummary;`,
);

/** Every file of the example, as the doc has them written. */
const wholeExample = {
  'shared/analysis-stages.ts': tableEntry,
  'shared/warehouse-model.ts': summaryType,
  'activities/analysis/warehouse/check-freshness.ts': activityFile,
  'activities/analysis/warehouse-activities.ts': registered,
  'workflows/analysis/warehouse-stages.ts': outcome,
  'shared/project-model.ts': viewKey,
};

/**
 * A copy of `workflows/` and `shared/` (all the workflow code loads) with `overlay` in place, in the
 * run's temporary directory; the overlay's other files (the activity) are written beside them.
 */
function copyWith(overlay: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'add-a-stage-'));
  for (const folder of ['workflows', 'shared'])
    fs.cpSync(at(folder), path.join(dir, folder), { recursive: true });
  for (const [file, text] of Object.entries(overlay)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  }
  fs.symlinkSync(at('node_modules'), path.join(dir, 'node_modules'), 'dir');
  return dir;
}

/** The workflow code of a copy, bundled as a worker bundles it. */
function bundleOf(dir: string): Promise<WorkflowBundleWithSourceMap> {
  const quiet = { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error() {} };
  return bundleWorkflowCode({ workflowsPath: path.join(dir, 'workflows', 'index.ts'), logger: quiet });
}

const bundleWith = (overlay: Record<string, string>) => bundleOf(copyWith(overlay));

let example: { dir: string; bundle: Promise<WorkflowBundleWithSourceMap> } | undefined;
/** The whole example's copy and its bundle, made once for the run and replay tests (a bundle costs seconds). */
function exampleCopy(): { dir: string; bundle: Promise<WorkflowBundleWithSourceMap> } {
  if (!example) {
    const dir = copyWith(wholeExample);
    example = { dir, bundle: bundleOf(dir) };
  }
  return example;
}

/** The recorded analysis projects each replayed against `workflowBundle`: the ones that fail, and why. */
async function replayFailures(workflowBundle: WorkflowBundleWithSourceMap): Promise<string[]> {
  const histories = recordedHistoryFiles()
    .filter((file) => file.startsWith('analysis-project-'))
    .map((file) => ({ workflowId: file, history: historyFromJson(readRecordedHistory(file)) }));
  expect(histories.length).toBeGreaterThan(0);
  const failures: string[] = [];
  for await (const result of Worker.runReplayHistories({ workflowBundle }, histories))
    if (result.error) failures.push(`${result.workflowId}: ${result.error.message}`);
  return failures;
}

describe('adding a stage (docs/architecture.md#adding-a-stage)', () => {
  it('fails to compile with the table entry alone, naming the missing outcome and registration', () => {
    const errors = compileErrors({ 'shared/analysis-stages.ts': tableEntry });
    expect(errors).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^workflows\/analysis\/warehouse-stages\.ts: .*'data_freshness' is missing/),
        expect.stringMatching(/^workers\/platform-activities\.ts: .*"checkFreshness"/),
      ]),
    );
  });

  it('compiles once the activity is registered, its outcome written and its result has a key on the view', () => {
    expect(compileErrors(wholeExample)).toEqual([]);
  });

  it('runs in a project after the stages before it, its result on the view and its report stored', async () => {
    const { dir, bundle } = exampleCopy();
    // The example's activity as written, on a real metadata store; the other stages are stand-ins.
    const { checkFreshness } = (await import(
      path.join(dir, 'activities/analysis/warehouse/check-freshness.ts')
    )) as {
      checkFreshness: (deps: WarehouseActivityDeps, request: WarehouseStageRequest) => Promise<unknown>;
    };
    const db = await openMetadataDb(path.join(dir, 'plat.db'));
    const store = new ProjectStore(db);
    const env = await timeSkippingEnv();
    try {
      const { activities, ran } = standIns(buildOfflinePrd(SNAPSHOT, 'online shop orders'));
      const { id, view } = await runStandInProject(
        env,
        'add-a-stage-test',
        {
          ...activities,
          // It reads nothing of its dependencies but the store.
          checkFreshness: (request: WarehouseStageRequest) => {
            ran.push('checkFreshness');
            return checkFreshness({ store } as WarehouseActivityDeps, request);
          },
        },
        { workflowBundle: await bundle },
      );
      expect(ran.slice(-2)).toEqual(['generatePipeline', 'checkFreshness']);
      expect(view).toMatchObject({
        status: 'completed',
        phases: { production_pipeline: 'completed', data_freshness: 'completed' },
        phase_details: { data_freshness: { message: '0 of 0 tables stale' } },
        warehouse: { freshness: { tables: 0, stale: [] } },
      });
      expect(await store.getArtifact(id, 'freshness_report' as ArtifactKind)).toEqual({ tables: [] });
    } finally {
      await env.teardown();
      await db.close();
    }
  });

  it('replays every recorded project behind its patch; without it, a completed project breaks', async () => {
    expect(await replayFailures(await exampleCopy().bundle)).toEqual([]);
    const unpatched = tableEntry.replace("    since: 'data-freshness-stage',\n", '');
    expect(unpatched).not.toBe(tableEntry);
    const failures = await replayFailures(
      await bundleWith({ ...wholeExample, 'shared/analysis-stages.ts': unpatched }),
    );
    expect(failures).toEqual(
      expect.arrayContaining([expect.stringMatching(/^analysis-project-completed\..*[Nn]ondeterminism/)]),
    );
  });
});

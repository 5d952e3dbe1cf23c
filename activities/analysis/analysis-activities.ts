/**
 * Activities of the analysisProject workflow before the warehouse stages: the PRD, the one-activity
 * copy and the bookkeeping, one file each (prd/, ingestion/, record-progress.ts), bound here to their
 * dependencies so tests and the worker wire the same code to real instances.
 */
import { bindDeps } from '../bind-deps';
import { ingestOds } from './ingestion/ingest-ods';
import type { IngestionDeps } from './ingestion/ingestion-deps';
import { generatePrd, type PrdDeps } from './prd/generate-prd';
import { recordProgress, type RecordProgressDeps } from './record-progress';

export type { GeneratePrdResult } from './prd/generate-prd';

export type AnalysisActivityDeps = PrdDeps & IngestionDeps & RecordProgressDeps;

/** The PRD, the one-activity copy and the bookkeeping, bound to their dependencies. */
export function createAnalysisActivities(deps: AnalysisActivityDeps) {
  return {
    ...bindDeps<PrdDeps, { generatePrd: typeof generatePrd }>(deps, { generatePrd }),
    ...bindDeps<IngestionDeps, { ingestOds: typeof ingestOds }>(deps, { ingestOds }),
    ...bindDeps<RecordProgressDeps, { recordProgress: typeof recordProgress }>(deps, { recordProgress }),
  };
}

export type AnalysisActivities = ReturnType<typeof createAnalysisActivities>;

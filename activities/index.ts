/** Every activity the platform worker registers, wired to their dependencies. */
import { createAnalysisActivities } from './analysis/analysis-activities';
import { ProjectStore } from './analysis/project-store';
import * as pingActivities from './health/ping-activities';
import { LocalParameterStore } from './secrets/local-parameter-store';
import type { ParameterStore } from './secrets/parameter-store';
import { metadataDbPath, openMetadataDb } from './store/metadata-db';
import * as path from 'node:path';

export interface ActivityDeps {
  store: ProjectStore;
  secrets: ParameterStore;
}

/** The real dependencies of a data directory: its metadata database and local parameter store. */
export function dataDirDeps(dataDir: string, secretKey?: string): ActivityDeps {
  return {
    store: new ProjectStore(openMetadataDb(metadataDbPath(dataDir))),
    secrets: new LocalParameterStore(path.join(dataDir, 'secrets'), secretKey),
  };
}

export function createActivities(deps: ActivityDeps) {
  return { ...pingActivities, ...createAnalysisActivities(deps) };
}

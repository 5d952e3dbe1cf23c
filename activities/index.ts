/** Every activity the platform worker registers, wired to their dependencies. */
import { createAnalysisActivities } from './analysis/analysis-activities';
import { ProjectStore } from './analysis/project-store';
import * as pingActivities from './health/ping-activities';
import { LocalParameterStore } from './secrets/local-parameter-store';
import type { ParameterStore } from './secrets/parameter-store';
import type { LlmSettings } from './agents/llm-settings';
import type { PlatConfig } from '../shared/config';
import type { ProjectEvent } from '../shared/project-model';
import { metadataDbPath, openMetadataDb } from './store/metadata-db';
import * as path from 'node:path';

export interface ActivityDeps {
  store: ProjectStore;
  secrets: ParameterStore;
  llm?: LlmSettings;
  onStoredEvents?: (events: ProjectEvent[]) => void;
}

/** The real dependencies of a data directory: its metadata database and local parameter store. */
export function dataDirDeps(
  dataDir: string,
  opts: { secretKey?: string; llm?: LlmSettings } = {},
): ActivityDeps {
  return {
    store: new ProjectStore(openMetadataDb(metadataDbPath(dataDir))),
    secrets: new LocalParameterStore(path.join(dataDir, 'secrets'), opts.secretKey),
    llm: opts.llm,
  };
}

/** Claude settings from the configuration, or undefined for the offline analysts. */
export function llmSettings(
  config: Pick<
    PlatConfig,
    'ANTHROPIC_API_KEY' | 'ANTHROPIC_BASE_URL' | 'PLAT_MODEL_LARGE' | 'PLAT_MODEL_MEDIUM' | 'PLAT_MODEL_SMALL'
  >,
): LlmSettings | undefined {
  if (!config.ANTHROPIC_API_KEY) return undefined;
  return {
    apiKey: config.ANTHROPIC_API_KEY,
    baseURL: config.ANTHROPIC_BASE_URL,
    models: {
      large: config.PLAT_MODEL_LARGE,
      medium: config.PLAT_MODEL_MEDIUM,
      small: config.PLAT_MODEL_SMALL,
    },
  };
}

export function createActivities(deps: ActivityDeps) {
  return { ...pingActivities, ...createAnalysisActivities(deps) };
}

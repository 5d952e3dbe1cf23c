/** The project's MySQL source as the analysis activities reach it, and its schema as data integration saved it. */
import { ApplicationFailure } from '@temporalio/activity';
import type { ProjectStore } from '../../domain/metadata-store/project-store';
import type { ParameterStore } from '../../domain/secrets/parameter-store';
import {
  SourceConnectionError,
  SourceNotAllowedError,
  sourceConnector,
  type SourceConnector,
} from '../../domain/sources/mysql-connection';
import { SourceMisbehavedError } from '../../domain/sources/bounded-source';
import type { SourcePolicy } from '../../domain/sources/source-policy';
import { readSourceSchema } from '../../domain/warehouse/ods-ingestion';
import { sourceTarget, type ProjectSource } from '../../shared/mysql-source';
import type { SourceSnapshot } from '../../shared/source-schema';

/**
 * The project's source, its password resolved from the parameter store (never logged or returned);
 * each of its connections passes `policy` first (docs/security.md#sources).
 */
export async function connectorOf(
  secrets: ParameterStore,
  source: ProjectSource,
  policy: SourcePolicy,
): Promise<SourceConnector> {
  const password = await secrets.get(source.password_ref);
  return sourceConnector(sourceTarget(source), source.username, password, undefined, policy);
}

/**
 * A connection to the source; a refusal retrying cannot fix (wrong password, no such database, an
 * address the source policy refuses) is not retried.
 */
export async function connectOrExplain(source: SourceConnector) {
  try {
    return await source.connect();
  } catch (err) {
    if (err instanceof SourceNotAllowedError) {
      throw ApplicationFailure.nonRetryable(err.message, 'SourceNotAllowed');
    }
    if (err instanceof SourceConnectionError && !err.retryable) {
      throw ApplicationFailure.nonRetryable(err.message, 'SourceAccessDenied');
    }
    throw err;
  }
}

/**
 * The source schema data integration saved, from the metadata store, so a stage reads it on any host;
 * projects copied before it was stored there have it beside their ODS files only.
 */
export async function loadSourceSchema(
  store: ProjectStore,
  warehouseRoot: string,
  projectId: string,
): Promise<SourceSnapshot> {
  return (
    (await store.getArtifact<SourceSnapshot>(projectId, 'source_schema')) ??
    readSourceSchema(warehouseRoot, projectId)
  );
}

/**
 * `err`, or for a source that stalled or flooded its answer, a failure that is not retried: it will
 * do so again, and each attempt would wait as long (docs/security.md#sources).
 */
export function misbehavingSourceFailsForGood(err: unknown): unknown {
  return err instanceof SourceMisbehavedError
    ? ApplicationFailure.nonRetryable(err.message, 'SourceMisbehaved')
    : err;
}

/** Typed signals, update and query of the analysisProject workflow (importable by clients). */
import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type { Decision, ProjectStatus, ProjectView } from '../../shared/project-model';
import type { Prd } from '../../shared/prd-schema';

/** `temporal workflow signal --name approve` (no input). */
export const approveSignal = defineSignal('approve');
/** `--name modify --input '<edited PRD JSON>'`: validated, then approved. */
export const modifySignal = defineSignal<[Prd]>('modify');
/** `--name reject --input '{"reason":"..."}'` (input optional). */
export const rejectSignal = defineSignal<[{ reason?: string }?]>('reject');

export interface DecisionRequest {
  decision: Decision;
  prd?: unknown;
  reason?: string;
}
export interface DecisionResult {
  project_id: string;
  decision: Decision;
  status: ProjectStatus;
}
/** The REST API's decision: the validator rejects it (409/400) when nothing is pending or the PRD is invalid. */
export const decideUpdate = defineUpdate<DecisionResult, [DecisionRequest]>('decide');

export const statusQuery = defineQuery<ProjectView>('status');

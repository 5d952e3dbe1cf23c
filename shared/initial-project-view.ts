/** The record of a project just created: the gateway stores it at once, the workflow starts from it. */
import { emptyCost } from './cost-ledger';
import { PHASES, type AnalysisProjectInput, type ProjectView } from './project-model';

export function initialProjectView(input: AnalysisProjectInput): ProjectView {
  return {
    project_id: input.project_id,
    owner_id: input.owner_id,
    status: 'running',
    phase: 'prd',
    message: 'project created; the product-manager agent is exploring the source',
    created_at: input.created_at,
    updated_at: input.created_at,
    description: input.description,
    source: { jdbc_url: input.source.jdbc_url, username: input.source.username },
    phases: Object.fromEntries(PHASES.map((p) => [p, 'pending'])) as ProjectView['phases'],
    phase_details: Object.fromEntries(PHASES.map((p) => [p, {}])) as ProjectView['phase_details'],
    cost: emptyCost(input.created_at),
    accumulated_usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
    cost_usd: 0,
    duration_seconds: 0,
    bi_dashboard_url: null,
  };
}

/**
 * The human decision on a PRD: the `approve`, `modify` and `reject` signals, the `decide` Update
 * (whose validator refuses a decision when nothing is pending or an edited PRD is invalid, so the
 * REST API answers 409/400 without a race) and the `status` query.
 */
import { ApplicationFailure, condition, log, setHandler } from '@temporalio/workflow';
import { alignEventDates } from '../../shared/prd-event-dates';
import type { Prd } from '../../shared/prd-schema';
import type { Decision, ProjectView } from '../../shared/project-model';
import {
  approveSignal,
  decideUpdate,
  modifySignal,
  rejectSignal,
  statusQuery,
  type DecisionRequest,
} from './analysis-project-messages';

/** A decision received, not yet acted on. */
export interface PendingDecision {
  decision: Decision;
  prd?: Prd;
  reason?: string;
}

/** Registers the handlers on `view`; `decision()` waits for the person's decision. */
export class ApprovalGate {
  private pending: PendingDecision | undefined;

  constructor(private readonly view: ProjectView) {
    setHandler(statusQuery, () => view);
    setHandler(approveSignal, () => {
      if (this.waiting()) this.pending = { decision: 'approve' };
      else log.warn('approve ignored: no PRD is waiting for a decision', { status: view.status });
    });
    setHandler(modifySignal, (edited) => {
      const parsed = parsePrd(edited);
      if (!this.waiting())
        log.warn('modify ignored: no PRD is waiting for a decision', { status: view.status });
      else if (!parsed.success)
        log.warn('modify ignored: the edited PRD is invalid', { issues: parsed.error.issues.slice(0, 5) });
      else this.pending = { decision: 'modify', prd: alignEventDates(parsed.data) };
    });
    setHandler(rejectSignal, (arg) => {
      if (this.waiting()) this.pending = { decision: 'reject', reason: arg?.reason };
      else log.warn('reject ignored: no PRD is waiting for a decision', { status: view.status });
    });
    setHandler(
      decideUpdate,
      async (req: DecisionRequest) => {
        this.pending = toPending(req);
        // Answer once the workflow has acted on it, with the status it led to.
        await condition(() => view.decision !== undefined);
        return { project_id: view.project_id, decision: req.decision, status: view.status };
      },
      {
        validator: (req: DecisionRequest) => {
          if (!this.waiting()) {
            throw ApplicationFailure.create({
              type: 'NoDecisionPending',
              message: `project ${view.project_id} is ${view.status}: no PRD is waiting for a decision`,
            });
          }
          toPending(req);
        },
      },
    );
  }

  /** Waits, for days if need be, until a person decides. */
  async decision(): Promise<PendingDecision> {
    await condition(() => this.pending !== undefined);
    return this.pending!;
  }

  private waiting(): boolean {
    return this.view.status === 'waiting_approval' && this.pending === undefined;
  }
}

function toPending(req: DecisionRequest): PendingDecision {
  if (req.decision === 'modify') {
    const parsed = parsePrd(req.prd);
    if (!parsed.success) {
      throw ApplicationFailure.create({
        type: 'InvalidPrd',
        message: 'the edited PRD is invalid',
        details: [parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }))],
      });
    }
    return { decision: 'modify', prd: alignEventDates(parsed.data) };
  }
  return { decision: req.decision, reason: req.reason };
}

let prdSchema: (typeof import('../../shared/prd-schema'))['prdSchema'] | undefined;

/**
 * Checks an edited PRD against the schema, which is loaded on the first edit. Every workflow
 * evaluates the modules it imports for itself when it starts or returns to a worker's cache, and
 * building this zod schema was most of that CPU, for any workflow type, though only an edit needs it
 * (docs/architecture.md#workflow-start-up).
 */
function parsePrd(value: unknown) {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a lazy import, see above
  prdSchema ??= (require('../../shared/prd-schema') as typeof import('../../shared/prd-schema')).prdSchema;
  return prdSchema.safeParse(value);
}

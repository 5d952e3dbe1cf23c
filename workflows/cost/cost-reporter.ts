/** Runs every 5 minutes from the `plat-cost-reporter` schedule: publish recent projects' costs. */
import type { CostReport, createCostReportActivities } from '../../activities/cost/cost-report-activities';
import { workloadActivities } from '../fleet/workload-activities';

const { reportCosts } = workloadActivities<ReturnType<typeof createCostReportActivities>>('operations', {
  startToCloseTimeout: '2 minutes',
  retry: { maximumAttempts: 3 },
});

/** Looks back a little further than the 5-minute interval so no update falls between two runs. */
export async function costReporterWorkflow(windowMinutes = 10): Promise<CostReport> {
  return reportCosts(windowMinutes);
}

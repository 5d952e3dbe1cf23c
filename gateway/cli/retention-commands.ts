/**
 * `plat retention [--dry-run] [--json]`: runs the retention pass now (docs/monitoring.md#retention),
 * as the daily `plat-retention` schedule does; with --dry-run it only lists what would go.
 */
import type { RetentionReport } from '../../domain/retention/retention-report';
import type { Command } from 'commander';
import { answering } from './command-kit';
import { table } from './render';
import { withTemporal } from './temporal-cli-client';

export const RETENTION_USAGE = `  retention [--dry-run]                   remove logs, agent logs, ODS files and ended projects' source
                                          passwords past their retention period now (daily at 03:00 by
                                          schedule); --dry-run lists them`;

/** Registers `plat retention [--dry-run]`. */
export function registerRetentionCommand(program: Command): void {
  program
    .command('retention')
    .option('--dry-run')
    .action(answering((_operands, flags) => retentionPass(flags['dry-run'] === true)));
}

async function retentionPass(dryRun: boolean): Promise<{ data: unknown; text: string }> {
  const report = await withTemporal(
    (client, taskQueue) =>
      client.workflow.execute('retentionWorkflow', {
        taskQueue,
        workflowId: `plat-retention-${dryRun ? 'dry-run-' : ''}${Date.now()}`,
        args: [{ dry_run: dryRun }],
      }) as Promise<RetentionReport>,
  );
  return { data: report, text: renderReport(report) };
}

function renderReport(r: RetentionReport): string {
  const verb = r.dry_run ? 'would remove' : 'removed';
  const kinds = Object.entries(r.totals).map(([kind, t]) => ({
    kind,
    'kept for': `${r.periods_days[kind as keyof typeof r.periods_days]} days`,
    [verb]: t.items,
    size: `${(t.bytes / 1024).toFixed(1)} KiB`,
  }));
  const lines = [
    `retention pass at ${r.now}${r.dry_run ? ' (dry run: nothing removed)' : ''}`,
    table(kinds, ['kind', 'kept for', verb, 'size']),
  ];
  if (r.hosts?.length)
    lines.push(
      `hosts: ${r.hosts.map((h) => `${h.host_id} (${h.state === 'done' ? `${h.items} items` : h.state})`).join(', ')}`,
    );
  if (r.items.length) {
    lines.push('', `${r.dry_run ? 'would go' : 'gone'}:`);
    for (const i of r.items)
      lines.push(
        `  ${i.kind.padEnd(14)} ${i.detail} (${i.age_days} days old)  ${i.host ? `${i.host}:` : ''}${i.target}`,
      );
  }
  lines.push(
    '',
    `OpenSearch: ${r.opensearch.state}${
      r.opensearch.state === 'not configured'
        ? ''
        : ` (${Object.entries(r.opensearch.policies)
            .map(([n, d]) => `${n} ${d} days`)
            .join(', ')})`
    }`,
    ...r.s3_lifecycle.map(
      (b) =>
        `S3 s3://${b.bucket}: lifecycle ${b.state} (${b.rules.map((x) => `${x.id}: ${x.applies_to} after ${x.expire_after_days} days`).join('; ')})`,
    ),
    ...r.notes.map((n) => `note: ${n}`),
  );
  return lines.join('\n');
}

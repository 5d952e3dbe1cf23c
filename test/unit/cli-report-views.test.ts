/**
 * `plat projects report ID KIND` in a terminal: each report with a view of its own reads as that
 * view, and a report the stage table gains before it has one reads as its JSON (not as an empty
 * file listing).
 */
import { reportText, type ReportKind } from '../../gateway/cli/report-commands';

describe('report views', () => {
  it('shows a report without a view of its own as its JSON', () => {
    // A stage added by following docs/architecture.md#adding-a-stage, before the CLI learns its report.
    const data = { project_id: 'proj-20261130-views', stale_tables: 2, tables: [{ name: 'orders' }] };
    const text = reportText('freshness' as ReportKind, data);
    expect(JSON.parse(text)).toEqual(data);
    expect(text).not.toMatch(/files/);
  });

  it('shows a report with a view as that view', () => {
    const quality = {
      project_id: 'proj-20261130-views',
      rules_passed: 2,
      rules_total: 3,
      rules_failed: 1,
      rules_errored: 0,
      results: [
        { severity: 'blocking', status: 'failed', name: 'payments ≤ 5.00', violations: 4, message: '' },
      ],
    };
    const text = reportText('quality', quality);
    expect(text).toMatch(/^2\/3 rules passed, 1 failed, 0 could not run/);
    expect(text).toContain('payments ≤ 5.00');
    expect(reportText('pipeline', { project_id: 'p', files: [{ path: 'README.md', content: 'x' }] })).toBe(
      '1 files (write them with --out DIR):\n  README.md',
    );
  });
});

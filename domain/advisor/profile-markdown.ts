/** Renders a DataProfileReport as Markdown, for logs, the CLI and attachments. */
import type { DataProfileReport, TableProfileReport } from './data-profile-types';

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const num = (n: number) => n.toLocaleString('en-US');
/** Pipes and newlines would break a Markdown table cell. */
const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');
const bar = (score: number) => '█'.repeat(Math.round(score / 10)).padEnd(10, '░');

function tableSection(t: TableProfileReport): string[] {
  const lines = [
    `### ${t.table} (${t.role}, from ${t.source_table})`,
    '',
    `${num(t.row_count)} rows, ${t.field_count} fields, ${pct(t.null_rate)} NULL cells` +
      (t.time_range
        ? `; ${t.time_range.column} from ${t.time_range.min} to ${t.time_range.max} (${num(t.time_range.days)} days, ${num(t.time_range.active_days)} with rows${t.time_range.grain ? `; charted ${t.time_range.grain.reason}` : ''})`
        : '') +
      (t.sampled_rows ? `; frequent values from a ${num(t.sampled_rows)}-row sample` : ''),
    '',
    '| column | type | NULL rate | distinct | frequent values |',
    '|---|---|---|---|---|',
  ];
  for (const c of t.columns) {
    const freq = c.frequent_values.map((v) => `${v.value} (${num(v.count)})`).join(', ');
    lines.push(
      `| ${cell(c.name)} | ${c.type} | ${pct(c.null_rate)} | ${c.distinct_count === null ? '–' : num(c.distinct_count)} | ${cell(freq)} |`,
    );
  }
  lines.push('');
  return lines;
}

/** The whole report: score, dimensions, insights, relations, suggestions, then one section per table. */
export function renderProfileMarkdown(report: DataProfileReport): string {
  const lines = [
    `# Data profile: ${report.project_id}`,
    '',
    `Overall score **${report.overall_score}/100** · ${report.analyst.version} · ${report.generated_at}`,
    '',
    '## Dimensions',
    '',
    '| dimension | score | weight | |',
    '|---|---|---|---|',
    ...report.dimensions.map((d) => `| ${d.name} | ${d.score} | ${d.weight} | \`${bar(d.score)}\` |`),
    '',
    ...report.dimensions.map((d) => `- **${d.name}** (${d.score}): ${d.explanation}`),
    '',
    '## Key insights',
    '',
    ...report.key_insights.map((s) => `- ${s}`),
    '',
    '## Relations (confidence ≥ 0.5)',
    '',
  ];
  if (report.relations.length) {
    lines.push('| from | to | confidence | evidence | match rate |', '|---|---|---|---|---|');
    for (const r of report.relations)
      lines.push(
        `| ${r.from_table}.${r.from_column} | ${r.to_table}.${r.to_column} | ${r.confidence.toFixed(2)} | ${r.evidence} | ${r.checked_rows ? `${pct(r.match_rate)} of ${num(r.checked_rows)}` : 'no values'} |`,
      );
  } else lines.push('None detected.');
  lines.push('', '## Modeling suggestions', '');
  lines.push(...report.suggestions.map((s) => `- **${s.layer.toUpperCase()}** ${s.title}: ${s.rationale}`));
  lines.push('', '## Tables', '');
  for (const t of report.tables) lines.push(...tableSection(t));
  return lines.join('\n');
}

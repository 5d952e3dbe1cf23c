/**
 * What the analyst is unsure of, for the person approving (docs/offline-analyst.md#say-when-unsure):
 * every decision of the PRD carries its evidence; those whose evidence is weak are listed in
 * `review`, weakest first, each with how sure the analyst is, why, and what else it could be. A
 * source where no fact could be dated says so, with every date-like column it saw, rather than
 * completing without a series.
 */
import type { Prd, PrdFact } from '../../../shared/prd-schema';
import type { SourceSnapshot } from '../../../shared/source-schema';
import { dayGrain } from '../../../shared/date-keys';
import { measuresReadByValues } from './column-meaning';
import { declaredCounter, keyOrderEvidence } from './refresh-plan';

/** One decision the person approving should check. */
export type ReviewItem = Prd['review'][number];

/** Below this, a decision is listed for review. */
const SURE = 0.75;

const SUPPORT_CONFIDENCE: Record<string, number> = {
  complete: 0.9,
  partial: 0.6,
  sparse: 0.35,
  implausible: 0.2,
};

/** How sure the analyst is of a fact's event time, and why not more. */
function eventTimeConfidence(fact: PrdFact, prd: Prd): { confidence: number; why: string[] } {
  const e = fact.event_time!;
  const chosen = fact.event_time_candidates.find((c) => c.table === e.table && c.column === e.column);
  const why: string[] = [];
  let confidence = SUPPORT_CONFIDENCE[chosen?.support ?? 'complete'];
  if (chosen && chosen.support !== 'complete') why.push(chosen.note || `support ${chosen.support}`);
  const reading = chosen?.reads_as;
  if (reading?.ambiguous) {
    confidence = Math.min(confidence, 0.5);
    why.push(
      `every day in ${e.column} is 12 or less, so ${reading.format} could as well be read month first`,
    );
  }
  if (dayGrain(reading) === 'year') {
    confidence = Math.min(confidence, 0.6);
    why.push(`${e.column} is a year alone: the series is yearly, dated on each year's first day`);
  }
  // A date reached through keys that no foreign key declares.
  const steps = e.path.map((p) => p.split(' -> ')[0]);
  const undeclared = prd.relationships.filter(
    (r) => r.origin === 'inferred' && steps.some((s) => s === `${r.table}.${r.columns.join('+')}`),
  );
  if (undeclared.length) {
    confidence = Math.min(confidence, 0.7);
    why.push(
      `reached through ${undeclared.map((r) => `${r.table}.${r.columns.join('+')} → ${r.references_table} (${r.evidence})`).join('; ')}`,
    );
  }
  return { confidence, why };
}

/** The decisions of `prd` to check, weakest first. */
export function decisionsToReview(prd: Prd, snapshot: SourceSnapshot): ReviewItem[] {
  const items: ReviewItem[] = [];
  if (prd.industry.confidence < SURE)
    items.push({
      decision: 'industry',
      subject: prd.source.database,
      confidence: prd.industry.confidence,
      evidence: `${prd.industry.name}: ${prd.industry.evidence.slice(0, 3).join('; ')}`,
      alternatives: [],
    });
  for (const fact of prd.facts) {
    const others = (except?: { table: string; column: string }) =>
      fact.event_time_candidates
        .filter((c) => !except || c.table !== except.table || c.column !== except.column)
        .map((c) => `${c.table}.${c.column} (${c.support}${c.note ? `; ${c.note}` : ''})`);
    if (fact.event_time) {
      const { confidence, why } = eventTimeConfidence(fact, prd);
      if (confidence < SURE)
        items.push({
          decision: 'event_time',
          subject: fact.table,
          confidence,
          evidence: `dated by ${fact.event_time.table}.${fact.event_time.column}: ${why.join('; ')}`,
          alternatives: others(fact.event_time),
        });
    } else if (fact.event_time_candidates.length)
      items.push({
        decision: 'event_time',
        subject: fact.table,
        confidence: 0.3,
        evidence: `no candidate is set on enough rows to date ${fact.table}, so it is reported as of the warehouse build; name one in event_time (modify) to chart it over time`,
        alternatives: others(),
      });
  }
  if (!prd.facts.some((f) => f.event_time)) {
    // Every column that could hold a day, whatever decided against it, for the person to pick.
    const seen = snapshot.tables.flatMap((t) =>
      t.columns
        .filter((c) => /^(date|datetime|timestamp)$/.test(c.data_type) || t.date_stats?.[c.name])
        .map((c) => `${t.name}.${c.name}`),
    );
    items.push({
      decision: 'no_series',
      subject: prd.source.database,
      confidence: 0.2,
      evidence: seen.length
        ? `no fact could be dated, so no dashboard has a series: the dates found describe no event the business counts (birth, validity, row maintenance) or are set on too few rows; name one in a fact's event_time (modify) to chart it`
        : 'no column holds days (no date type, no text whose values are days, no year/month/day parts): every fact is reported as of the warehouse build',
      alternatives: seen,
    });
  }
  for (const fact of prd.facts)
    for (const m of fact.measures.filter((x) => /^list-price revenue =/.test(x)))
      items.push({
        decision: 'measure',
        subject: fact.table,
        confidence: 0.6,
        evidence: `${m}: what the catalogue charges, not what each customer paid`,
        alternatives: [],
      });
  // Numbers no name explained, read as levels or flows by their values alone.
  for (const fact of prd.facts) {
    const table = snapshot.tables.find((t) => t.name === fact.table);
    for (const m of table ? measuresReadByValues(table) : [])
      items.push({
        decision: 'measure',
        subject: fact.table,
        confidence: 0.6,
        evidence: `${m.column} ${m.why}`,
        alternatives: [
          m.meaning === 'level' ? `${m.column} summed as a flow` : `${m.column} averaged as a level`,
        ],
      });
  }
  items.push(...keysJudgedByOrder(prd, snapshot));
  return items.sort((a, b) => a.confidence - b.confidence);
}

/**
 * Refreshes that read from the last key where the key was judged to grow by the order of its last
 * rows, not declared: a row given a lower key later would never be read
 * (docs/offline-analyst.md#change-detection).
 */
function keysJudgedByOrder(prd: Prd, snapshot: SourceSnapshot): ReviewItem[] {
  return prd.refresh.flatMap((entry) => {
    const table = snapshot.tables.find((t) => t.name === entry.table);
    const key = table?.columns.find((c) => c.name === entry.column);
    const order = table?.key_order;
    if (entry.detect !== 'key' || !key || declaredCounter(key) || order?.key !== key.name) return [];
    return [
      {
        decision: 'refresh' as const,
        subject: entry.table,
        confidence: 0.7,
        evidence: `a refresh reads ${entry.table} from its last ${entry.column}, judged by the data: ${keyOrderEvidence(order)}; a row given a lower key later would be missed`,
        alternatives: [`read ${entry.table} whole (detect: full)`],
      },
    ];
  });
}

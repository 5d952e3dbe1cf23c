/**
 * The analytics advisor's data-profile report (docs/requirements.md#data-profile), built offline and
 * deterministically from the project's ODS layer: no model calls. Reads the ODS DuckDB catalog
 * read-only and the source schema saved by data integration (keys and foreign keys).
 */
import type { Prd } from '../../shared/prd-schema';
import type { SourceSnapshot, SourceTable } from '../../shared/source-schema';
import { eventDateOf } from '../agents/offline-analyst/table-roles';
import { eventDateSource } from '../../shared/date-keys';
import { readSourceSchema } from '../warehouse/ods-ingestion';
import {
  PROFILE_ANALYST_VERSION,
  type DataProfileReport,
  type QualitySummary,
  type TableProfileReport,
} from './data-profile-types';
import { checkPrimaryKeys } from './key-checks';
import { modelingSuggestions } from './modeling-suggestions';
import { openOdsCatalog } from './ods-catalog-reader';
import type { ProfileFacts } from './profile-facts';
import { keyInsights } from './profile-insights';
import { overallScore, scoreDimensions } from './profile-scoring';
import { detectRelations, type OdsTableMeta } from './relation-detector';
import { profileTable, rowCounts } from './table-profiler';

/** What buildDataProfile reads. */
export interface BuildDataProfileInput {
  warehouseRoot: string;
  projectId: string;
  /** The approved PRD: its ODS tables are profiled, its fact and dimension tables drive the scoring. */
  prd: Prd;
  /** Quality-rule results of the governance stage; without them data quality is measured directly. */
  quality?: QualitySummary;
  /** The source schema data integration saved (default: the file beside the ODS). */
  schema?: SourceSnapshot;
}

/** A table missing from the saved schema is still profiled, just without keys. */
function bareSourceTable(name: string, columns: { name: string; type: string }[]): SourceTable {
  return {
    name,
    row_count: 0,
    columns: columns.map((c) => ({
      name: c.name,
      type: c.type,
      data_type: c.type.toLowerCase(),
      nullable: true,
      key: '',
    })),
    primary_key: [],
    foreign_keys: [],
    sample_rows: [],
  };
}

/**
 * The business date profiled for a table: the event time the PRD gives its facts (a header's date
 * serves its lines too), never a birth or audit date of a dimension. PRDs without `facts` fall back
 * to the fact tables' own dates.
 */
function eventColumnOf(prd: Prd, table: SourceTable): string | undefined {
  const dated = prd.facts.find((f) => f.event_time?.table === table.name)?.event_time?.column;
  if (dated) return table.columns.find((c) => c.name.toLowerCase() === dated.toLowerCase())?.name;
  if (prd.facts.length || !prd.fact_tables.includes(table.name)) return undefined;
  return eventDateOf(table);
}

function roleOf(prd: Prd, source: string): TableProfileReport['role'] {
  if (prd.fact_tables.includes(source)) return 'fact';
  if (prd.dimension_tables.includes(source)) return 'dimension';
  return 'other';
}

/** Profiles every ODS table of the PRD and scores the layer; see DataProfileReport for the shape. */
export async function buildDataProfile(input: BuildDataProfileInput): Promise<DataProfileReport> {
  const { warehouseRoot, projectId, prd } = input;
  const schema = input.schema ?? readSourceSchema(warehouseRoot, projectId);
  const sources = new Map(schema.tables.map((t) => [t.name, t]));
  const catalog = await openOdsCatalog(warehouseRoot, projectId);
  try {
    const odsColumns = await catalog.columns();
    const metas: OdsTableMeta[] = prd.layers.ods
      .filter((t) => odsColumns.has(t.name))
      .map((t) => {
        const columns = odsColumns.get(t.name)!;
        const sourceName = t.source_tables[0] ?? t.name;
        return {
          ods: t.name,
          source: sources.get(sourceName) ?? bareSourceTable(sourceName, columns),
          columns,
        };
      });

    const counts = await rowCounts(
      catalog,
      metas.map((m) => m.ods),
    );
    const tables: TableProfileReport[] = [];
    for (const m of metas) {
      const event = eventColumnOf(prd, m.source);
      // A column that is no date reads as its candidate says (text in a format, a year with its parts).
      const reading = prd.facts
        .flatMap((f) => f.event_time_candidates)
        .find((c) => c.table === m.source.name && c.column === event && c.reads_as)?.reads_as;
      tables.push(
        await profileTable(catalog, {
          table: m.ods,
          source_table: m.source.name,
          role: roleOf(prd, m.source.name),
          columns: m.columns,
          rows: counts.get(m.ods) ?? 0,
          event_column: event && m.columns.some((c) => c.name === event) ? event : undefined,
          ...(reading && event ? { event_day: eventDateSource(m.ods, event, reading) } : {}),
        }),
      );
    }
    const { relations, rejected } = await detectRelations(catalog, metas);
    const facts: ProfileFacts = {
      tables,
      metas: new Map(metas.map((m) => [m.ods, m])),
      relations,
      rejected,
      keyChecks: await checkPrimaryKeys(catalog, metas),
      quality: input.quality,
    };
    const dimensions = scoreDimensions(facts);
    return {
      version: 1,
      project_id: projectId,
      generated_at: new Date().toISOString(),
      analyst: { kind: 'offline_profile_analyst', version: PROFILE_ANALYST_VERSION },
      overall_score: overallScore(dimensions),
      dimensions,
      key_insights: keyInsights(facts),
      tables,
      relations,
      suggestions: modelingSuggestions(facts),
    };
  } finally {
    catalog.close();
  }
}

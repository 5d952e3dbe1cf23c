/**
 * The attributes a fact is best broken down by, reached through its N:1 joins: geography first,
 * then product hierarchy (category, genre, product line), stores and offices, channels and
 * methods, then named entities (product, employee, customer). One attribute per table, at most
 * three, nearer tables preferred.
 */
import { pathTo, type JoinStep } from '../../../shared/join-tree';
import type { SourceColumn, SourceTable } from '../../../shared/source-schema';
import { columnWords, fieldIdentifier, identifier, singularWords } from './name-words';
import { personNameColumns, type TableAnalysis } from './table-roles';
import { columnReference } from '../../../shared/prd-sql/expression-sql';

export interface Breakdown {
  /** The DWD/ADS column name, e.g. `country`, `category_name`, `employee_name`. */
  name: string;
  /** Source expression over qualified source columns, e.g. `customer.country`. */
  source: string;
  table: string;
  description: string;
  /** How the fact reaches the table. */
  path: JoinStep[];
}

const GEO = ['country', 'region', 'territory', 'state', 'province', 'continent'];
/** Product and organisation hierarchies: the breakdowns analysts reach for first. */
const HIERARCHIES = [
  'category',
  'genre',
  'line',
  'family',
  'department',
  'collection',
  'brand',
  'subcategory',
];
/** Other classifications: useful, but second to a hierarchy. */
const CLASSES = ['group', 'segment', 'class', 'type', 'kind', 'rating', 'tier'];
const GROUPS = [...HIERARCHIES, ...CLASSES];
const CHANNELS = ['channel', 'method', 'carrier', 'status', 'source', 'medium', 'platform', 'device', 'mode'];
const PLACES = ['store', 'office', 'branch', 'warehouse', 'shop', 'location', 'site', 'outlet'];
const PRODUCTS = [
  'product',
  'track',
  'film',
  'item',
  'sku',
  'article',
  'service',
  'plan',
  'album',
  'book',
  'course',
];
const PEOPLE_STAFF = ['employee', 'staff', 'agent', 'rep', 'salesperson', 'seller'];
const PEOPLE_CUSTOMERS = ['customer', 'client', 'user', 'member', 'account', 'patient', 'student', 'guest'];
/** Free text and contact details: too many values to chart. */
const NOT_CATEGORIES = [
  'description',
  'comment',
  'comments',
  'note',
  'notes',
  'address',
  'email',
  'phone',
  'url',
  'image',
  'html',
  'text',
  'password',
  'street',
  'postal',
  'zip',
  'code',
  'fax',
  'website',
  'photo',
  'picture',
];
const TEXT_TYPES = new Set(['varchar', 'char', 'enum', 'tinytext']);

const hasAny = (words: string[], vocab: string[]) => words.some((w) => vocab.includes(w));

interface Candidate extends Breakdown {
  score: number;
  concept: string;
}

/** Rows read from which a column's few distinct values say it is categorical. */
const MIN_SAMPLED_ROWS = 30;
/** At most this many distinct values (and a third of the rows read) make a category. */
const MAX_CATEGORIES = 25;

/** Whether the rows read show a column holds a handful of values, each repeated (docs/offline-analyst.md#flat-exports). */
export function fewValues(table: SourceTable, column: SourceColumn): boolean {
  const sampled = table.sampled;
  const distinct = sampled?.distinct[column.name];
  if (!sampled || distinct === undefined || sampled.rows < MIN_SAMPLED_ROWS) return false;
  return distinct >= 2 && distinct <= MAX_CATEGORIES && distinct <= sampled.rows / 3;
}

function scoreColumn(
  table: SourceTable,
  column: SourceColumn,
): { score: number; concept: string } | undefined {
  const words = columnWords(table, column.name);
  const tableWords = singularWords(table.name);
  // Long text types hold categories too when their values repeat (a spreadsheet import types every
  // string `text`): the values decide, not the type.
  const texty =
    TEXT_TYPES.has(column.data_type) || (/text$/.test(column.data_type) && fewValues(table, column));
  if (!texty || hasAny(words, NOT_CATEGORIES)) return undefined;
  if (hasAny(words, GEO)) return { score: 10, concept: 'geo' };
  if (words.includes('city')) return { score: 4, concept: 'city' };
  const isLabel = hasAny(words, ['name', 'title', 'label']) || words.join('') === tableWords.join('');
  if (hasAny(words, HIERARCHIES) || (isLabel && hasAny(tableWords, HIERARCHIES)))
    return { score: 9, concept: 'group' };
  if (hasAny(words, CLASSES) || (isLabel && hasAny(tableWords, CLASSES)))
    return { score: 7.5, concept: 'class' };
  if (hasAny(words, CHANNELS)) return { score: 6, concept: 'channel' };
  // A column of few values repeated over the rows read is an attribute to break down by, whatever
  // its name (`Ship Mode`, `SENADOR`, `LSTG_FORMAT_NAME`); below the named classes.
  if (!isLabel)
    return fewValues(table, column) ? { score: 5.5, concept: `few values: ${column.name}` } : undefined;
  if (hasAny(tableWords, GEO)) return { score: 10, concept: 'geo' };
  if (hasAny(tableWords, PLACES)) return { score: 8, concept: 'place' };
  if (hasAny(tableWords, PRODUCTS)) return { score: 7, concept: 'product' };
  if (hasAny(tableWords, PEOPLE_STAFF)) return { score: 5, concept: 'staff' };
  if (hasAny(tableWords, PEOPLE_CUSTOMERS)) return { score: 4, concept: 'customer' };
  return { score: 3, concept: table.name };
}

/** `chart_class` + `class_name` → `chart_class_name`: words the two share at the seam said once. */
function joinOverlapping(stem: string, spoken: string): string {
  const a = stem.split('_');
  const b = spoken.split('_');
  for (let n = Math.min(a.length, b.length - 1); n > 0; n--)
    if (a.slice(-n).join('_') === b.slice(0, n).join('_')) return [...a, ...b.slice(n)].join('_');
  return `${stem}_${spoken}`;
}

/** The best breakdown attributes of a fact (at most `limit`). */
export function breakdownsOf(
  fact: TableAnalysis,
  tree: Map<string, JoinStep | null>,
  byName: Map<string, TableAnalysis>,
  limit = 3,
): Breakdown[] {
  const candidates: Candidate[] = [];
  for (const tableName of tree.keys()) {
    const analysis = byName.get(tableName);
    if (!analysis || ['bridge', 'snapshot'].includes(analysis.role)) continue;
    const table = analysis.table;
    const path = pathTo(tree, tableName) ?? [];
    // A table's words without bare numbers (`0_suppliers` of a company-prefixed schema is `supplier`).
    const stem =
      singularWords(table.name)
        .filter((w) => !/^\d+$/.test(w))
        .join('_') || singularWords(table.name).join('_');
    const person = personNameColumns(table);
    if (person && tableName !== fact.table.name) {
      const tableWords = singularWords(table.name);
      const score = hasAny(tableWords, PEOPLE_STAFF) ? 5 : hasAny(tableWords, PEOPLE_CUSTOMERS) ? 4 : 3;
      candidates.push({
        name: identifier(`${stem}_name`),
        source: `${columnReference(table.name, person.first.name)} || ' ' || ${columnReference(table.name, person.last.name)}`,
        table: tableName,
        description: `${stem.replace(/_/g, ' ')} (${person.first.name} ${person.last.name})`,
        path,
        score: score - 0.5 * path.length,
        concept: hasAny(tableWords, PEOPLE_STAFF) ? 'staff' : 'customer',
      });
    }
    for (const column of table.columns) {
      // Natural text keys (productLine, country code names) are labels; numeric keys are not.
      if (analysis.meaning.get(column.name) === 'key' && !TEXT_TYPES.has(column.data_type)) continue;
      const scored = scoreColumn(table, column);
      if (!scored) continue;
      const words = columnWords(table, column.name);
      const spoken = identifier(words.join('_') || column.name);
      const specific =
        !hasAny(words, ['name', 'title', 'label']) &&
        (words.length > 1 ||
          tableName === fact.table.name ||
          hasAny(words, [...GEO, ...GROUPS, ...CHANNELS]));
      candidates.push({
        // `stores.store_name` is already qualified; `category.name` needs the table's noun.
        // Named by the column's words: `p_productgroup` → `product_group`.
        name: fieldIdentifier(
          specific || spoken.startsWith(`${stem}_`) ? spoken : joinOverlapping(stem, spoken),
        ),
        source: columnReference(table.name, column.name),
        table: tableName,
        description: `${table.name}.${column.name}`,
        path,
        score: scored.score - 0.5 * path.length,
        concept: scored.concept,
      });
    }
  }
  candidates.sort((a, b) => b.score - a.score || a.path.length - b.path.length);
  const chosen: Candidate[] = [];
  const usedTables = new Set<string>();
  const usedConcepts = new Set<string>();
  const usedNames = new Set<string>();
  for (const c of candidates) {
    if (chosen.length >= limit) break;
    if (usedTables.has(c.table) || usedConcepts.has(c.concept) || usedNames.has(c.name)) continue;
    chosen.push(c);
    usedTables.add(c.table);
    usedConcepts.add(c.concept);
    usedNames.add(c.name);
  }
  return chosen.map(({ name, source, table, description, path }) => ({
    name,
    source,
    table,
    description,
    path,
  }));
}

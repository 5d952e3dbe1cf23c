/**
 * Tokens and term statistics of an index (docs/search-lifecycle.md#term-statistics-term-statisticsts): `_analyze`, term vectors
 * of a stored document (by the engine's own `_id`) or of an artificial one, and a terms aggregation
 * over a time range. Two rules save users a confusing answer: term vectors of a stored document come
 * back empty when the mapping stores none (plat says so and offers the artificial-document route),
 * and a terms aggregation on a text field goes to its keyword sub-field (or plat names the fix).
 */
import { writeIndexInAnswer } from './lifecycle/cluster-snapshot';
import { OpenSearchError, type OpenSearchClient } from './opensearch-client';

export interface AnalyzeRequest {
  text: string;
  /** An analyzer name (`standard`, `english`, ...) or a field whose analyzer to use. */
  analyzer?: string;
  field?: string;
}

export interface Token {
  token: string;
  position: number;
  start_offset: number;
  end_offset: number;
  type: string;
}

export async function analyze(
  client: OpenSearchClient,
  index: string,
  req: AnalyzeRequest,
): Promise<Token[]> {
  if (!req.analyzer === !req.field) throw new Error('give exactly one of analyzer and field');
  const out = await onOneIndex(client, index, (target) =>
    client.request<{ tokens: Token[] }>('POST', `/${encodeURIComponent(target)}/_analyze`, req),
  );
  return out.tokens;
}

/**
 * Runs an operation that needs one index on `index`; when it is an alias over several indices (a
 * rolled-over write alias), on its write index instead of answering the cluster's "alias has more
 * than one index" error.
 */
export async function onOneIndex<T>(
  client: OpenSearchClient,
  index: string,
  run: (target: string) => Promise<T>,
  pick: () => Promise<string | undefined> = () => writeIndexOf(client, index),
): Promise<T> {
  try {
    return await run(index);
  } catch (err) {
    if (!(err instanceof OpenSearchError) || !/more than one ind/i.test(err.reason)) throw err;
    const target = await pick();
    if (!target || target === index) throw err;
    return run(target);
  }
}

/** The write index of an alias (`GET _alias/<alias>`), or undefined. */
async function writeIndexOf(client: OpenSearchClient, alias: string): Promise<string | undefined> {
  const answer = await client.request<
    Record<string, { aliases: Record<string, { is_write_index?: boolean }> }>
  >('GET', `/_alias/${encodeURIComponent(alias)}`);
  return writeIndexInAnswer(answer, alias);
}

/** The index of an alias that holds the stored document `id` (one `ids` search), or undefined. */
async function indexHolding(
  client: OpenSearchClient,
  alias: string,
  id: string,
): Promise<string | undefined> {
  const found = await client.request<{ hits: { hits: { _index: string }[] } }>(
    'POST',
    `/${encodeURIComponent(alias)}/_search`,
    { size: 1, _source: false, query: { ids: { values: [id] } } },
  );
  return found.hits.hits[0]?._index;
}

/** Term-vector filter parameters (which terms come back). */
export interface TermVectorFilter {
  max_num_terms?: number;
  min_term_freq?: number;
  max_term_freq?: number;
  min_doc_freq?: number;
  max_doc_freq?: number;
  min_word_length?: number;
  max_word_length?: number;
}

export interface TermVectorsRequest {
  /** A stored document's `_id` (the engine's id, not an id inside the source)... */
  id?: string;
  /** ...or an artificial document, analyzed on the fly (no mapping setting needed). */
  doc?: Record<string, unknown>;
  /**
   * The fields wanted. Named fields without stored vectors are computed from the source on the fly;
   * without `fields`, only fields whose mapping stores term vectors come back.
   */
  fields?: string[];
  term_statistics?: boolean;
  field_statistics?: boolean;
  positions?: boolean;
  offsets?: boolean;
  filter?: TermVectorFilter;
}

export interface TermVectorsAnswer {
  found: boolean;
  term_vectors: Record<string, unknown>;
  /** Why the answer is empty, and what to ask instead, when plat can tell. */
  note?: string;
  /** The artificial-document request that answers for a stored document whose mapping stores no vectors. */
  artificial_request?: TermVectorsRequest;
}

export async function termVectors(
  client: OpenSearchClient,
  index: string,
  req: TermVectorsRequest,
): Promise<TermVectorsAnswer> {
  if (!req.id === !req.doc)
    throw new Error('give exactly one of id (a stored document) and doc (an artificial one)');
  const { id, ...body } = req;
  const path = `/${encodeURIComponent(index)}/_termvectors${id ? `/${encodeURIComponent(id)}` : ''}`;
  let out: { found: boolean; term_vectors?: Record<string, unknown> };
  try {
    // Over a rolled-over alias: the index holding the document, or the write index for an artificial one.
    out = await onOneIndex(
      client,
      index,
      (target) =>
        client.request(
          'POST',
          path.replace(`/${encodeURIComponent(index)}/`, `/${encodeURIComponent(target)}/`),
          body,
        ),
      () => (id ? indexHolding(client, index, id) : writeIndexOf(client, index)),
    );
  } catch (err) {
    // The cluster answers 500 for an artificial document it cannot map (an empty field name, a value
    // that contradicts the mapping): the request's fault, said as such.
    if (req.doc && err instanceof OpenSearchError && err.status === 500)
      throw new OpenSearchError(
        422,
        err.type,
        `the cluster could not compute term vectors for this document (${err.reason}): check its field names and that its values fit the index mapping`,
        err.method,
        err.path,
      );
    throw err;
  }
  const answer: TermVectorsAnswer = { found: out.found, term_vectors: out.term_vectors ?? {} };
  if (!id) return answer;
  if (!out.found) {
    answer.note = `no document with _id ${id} in ${index} (the _id is the engine's own id, not an id field inside the document)`;
    return answer;
  }
  // Rule 1: found, yet fields are missing: the mapping stores no term vectors for them.
  const wanted = req.fields ?? (await textFields(client, index));
  const missing = wanted.filter((f) => !(f in answer.term_vectors));
  if (missing.length === 0) return answer;
  const stored = await storedFields(client, index, id, missing);
  answer.note =
    `${missing.join(', ')}: the mapping stores no term vectors (term_vector is "no"), so the stored ` +
    'document answers without them. Name the fields (they are then computed from the source), ask with the ' +
    'document itself (artificial_request), or set term_vector (e.g. with_positions_offsets) in the template ' +
    'for new indices.';
  if (Object.keys(stored).length) answer.artificial_request = { ...body, fields: missing, doc: stored };
  return answer;
}

/** The top-level text fields of the index's mapping. */
async function textFields(client: OpenSearchClient, index: string): Promise<string[]> {
  const out = await client.request<
    Record<string, { mappings: { properties?: Record<string, { type?: string }> } }>
  >('GET', `/${encodeURIComponent(index)}/_mapping`);
  const names = new Set<string>();
  for (const entry of Object.values(out))
    for (const [name, m] of Object.entries(entry.mappings.properties ?? {}))
      if (m.type === 'text') names.add(name);
  return [...names];
}

/** The document's values of `fields`, to re-ask as an artificial document. */
async function storedFields(client: OpenSearchClient, index: string, id: string, fields: string[]) {
  const got = await client.getOrUndefined<{ _source?: Record<string, unknown> }>(
    `/${encodeURIComponent(index)}/_doc/${encodeURIComponent(id)}?_source_includes=${fields.map(encodeURIComponent).join(',')}`,
  );
  return got?._source ?? {};
}

export interface TermsRequest {
  field: string;
  size?: number;
  /** Time range on `timestamp_field` (default `@timestamp`): gte `from`, lt `to`. */
  from?: string;
  to?: string;
  timestamp_field?: string;
}

export interface TermsAnswer {
  /** The field aggregated: the one asked for, or its keyword sub-field. */
  field: string;
  /** doc_count is a document frequency: how many documents hold the term. */
  buckets: { key: string; doc_count: number }[];
  note?: string;
}

/** Thrown when the field cannot be aggregated, naming what to do. */
export class NotAggregatableError extends Error {}

export async function termsAggregation(
  client: OpenSearchClient,
  index: string,
  req: TermsRequest,
): Promise<TermsAnswer> {
  let field = req.field;
  let note: string | undefined;
  const mapping = await fieldMapping(client, index, req.field);
  if (mapping?.type === 'text') {
    // Rule 2: a text field cannot be aggregated; its keyword sub-field can.
    const keyword = Object.entries(mapping.fields ?? {}).find(([, m]) => m.type === 'keyword')?.[0];
    if (!keyword)
      throw new NotAggregatableError(
        `${req.field} is a text field, which cannot be aggregated, and has no keyword sub-field: add one ` +
          `(fields: {keyword: {type: keyword}}) to the template for new indices, aggregate another keyword field, ` +
          `or enable fielddata on ${req.field} temporarily (memory-hungry)`,
      );
    field = `${req.field}.${keyword}`;
    note = `${req.field} is a text field: aggregated its keyword sub-field ${field} (whole values, not tokens)`;
  }
  const ts = req.timestamp_field ?? '@timestamp';
  const range =
    req.from || req.to
      ? { range: { [ts]: { ...(req.from ? { gte: req.from } : {}), ...(req.to ? { lt: req.to } : {}) } } }
      : undefined;
  try {
    const out = await client.request<{
      aggregations: { terms: { buckets: { key: string; doc_count: number }[] } };
    }>('POST', `/${encodeURIComponent(index)}/_search`, {
      size: 0,
      ...(range ? { query: range } : {}),
      aggs: { terms: { terms: { field, size: req.size ?? 10, order: { _count: 'desc' } } } },
    });
    return {
      field,
      buckets: out.aggregations.terms.buckets.map(({ key, doc_count }) => ({ key: String(key), doc_count })),
      ...(note ? { note } : {}),
    };
  } catch (err) {
    if (err instanceof OpenSearchError && /fielddata|not optimi[sz]ed for operations/i.test(err.reason))
      throw new NotAggregatableError(`${field} cannot be aggregated: ${err.reason}`);
    throw err;
  }
}

interface FieldMapping {
  type?: string;
  fields?: Record<string, { type?: string }>;
}

/** The field's mapping in the first index that maps it (`_mapping/field`, dotted names resolved). */
async function fieldMapping(
  client: OpenSearchClient,
  index: string,
  field: string,
): Promise<FieldMapping | undefined> {
  const out = await client.getOrUndefined<
    Record<string, { mappings: Record<string, { mapping: Record<string, FieldMapping> }> }>
  >(`/${encodeURIComponent(index)}/_mapping/field/${encodeURIComponent(field)}`);
  for (const entry of Object.values(out ?? {})) {
    const found = entry.mappings[field]?.mapping;
    if (found) return Object.values(found)[0];
  }
  return undefined;
}

/**
 * A local HTTP fake of Qdrant's REST wire format, for exactly the endpoints the memory store's
 * `@qdrant/js-client-rest` calls make: root, collection exists/info/create/delete, payload index
 * create, and points upsert/retrieve/delete/scroll/count/query. Everything is real but in memory:
 * filters (must/should/must_not, match value/any/except, range numeric and datetime, is_null,
 * is_empty, has_id, nested filters, dotted keys, arrays), one unnamed dense vector scored
 * cosine/dot/euclid by brute force beside any named sparse vectors (validated as Qdrant does,
 * scored by dot product over shared indices), id-paged and `order_by` scrolls (which, as in
 * Qdrant, need a range-capable index). Anything else answers 400 "not implemented by the fake" so
 * an unexpected call is visible. Every request is recorded for assertions.
 */
import express, { type NextFunction, type Request, type Response } from 'express';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as the fake saw it. */
export interface QdrantFakeRequest {
  method: string;
  /** Path without the query string, e.g. `/collections/plat_memories/points/query`. */
  path: string;
  query: Record<string, string>;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}

export type PointId = string | number;

/** Qdrant's sparse vector: parallel lists of unique dimensions and their values. */
export interface SparseVector {
  indices: number[];
  values: number[];
}

interface StoredPoint {
  id: PointId;
  /** The unnamed dense vector ("" in a named-vector object); a point may lack it, as in Qdrant. */
  vector: number[] | undefined;
  /** Sparse vector name -> the point's vector (sorted by index, as Qdrant keeps them). */
  sparse: Map<string, SparseVector>;
  payload: Record<string, unknown>;
  version: number;
}

/** A collection's state, open to tests for assertions. */
export interface FakeCollection {
  size: number;
  distance: 'Cosine' | 'Dot' | 'Euclid';
  /** Sparse vector name -> its params as created (`{}` for the defaults). */
  sparseVectors: Map<string, Json>;
  /** Keyed by `idKey`. */
  points: Map<string, StoredPoint>;
  /** field name -> payload schema type. */
  indexes: Map<string, string>;
}

export interface QdrantFake {
  url: string;
  requests: QdrantFakeRequest[];
  collections: Map<string, FakeCollection>;
  close(): Promise<void>;
}

class FakeError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const bad = (message: string) => new FakeError(400, `Bad request: ${message}`);
const unsupported = (what: string) => new FakeError(400, `${what} is not implemented by the fake`);

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

// ---- point ids -------------------------------------------------------------------------------

const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;

/** The canonical id (Qdrant answers UUIDs lowercase and hyphenated), or a 400 for anything else. */
function pointId(raw: unknown): PointId {
  if (typeof raw === 'number' && Number.isSafeInteger(raw) && raw >= 0) return raw;
  if (typeof raw === 'string' && UUID.test(raw)) {
    const hex = raw.replace(/-/g, '').toLowerCase();
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  }
  throw bad(
    `value ${JSON.stringify(raw)} is not a valid point ID, valid values are either an unsigned integer or a UUID`,
  );
}

const idKey = (id: PointId) => (typeof id === 'number' ? `n:${id}` : `u:${id}`);

/** Qdrant's id order: integers first, ascending, then UUIDs by value (= canonical hex order). */
function compareIds(a: PointId, b: PointId): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'number') return -1;
  if (typeof b === 'number') return 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

// ---- filters ---------------------------------------------------------------------------------

/** The values a (dotted) key reaches in a payload; arrays fan out, as in Qdrant. */
function valuesAt(payload: Json, key: string): unknown[] {
  let current: unknown[] = [payload];
  for (const part of key.replace(/\[\]/g, '').split('.')) {
    current = current.flatMap((v) => {
      if (!isObject(v) || !(part in v)) return [];
      const next = v[part];
      return Array.isArray(next) ? next : [next];
    });
  }
  return current;
}

/** A key whose value is missing, null, or an empty array. */
function isEmptyAt(payload: Json, key: string): boolean {
  return valuesAt(payload, key).every((v) => v === null);
}

function isNullAt(payload: Json, key: string): boolean {
  const values = valuesAt(payload, key);
  return values.length > 0 && values.some((v) => v === null);
}

function asList(v: unknown): unknown[] {
  if (v === undefined || v === null) return [];
  return Array.isArray(v) ? v : [v];
}

/** Milliseconds of an RFC 3339 date-time, or undefined for anything else. */
function datetimeMs(v: unknown): number | undefined {
  if (
    typeof v !== 'string' ||
    !/^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/.test(v)
  )
    return undefined;
  const ms = Date.parse(v.includes('T') || v.length === 10 ? v : v.replace(' ', 'T'));
  return Number.isNaN(ms) ? undefined : ms;
}

function inRange(range: Json, values: unknown[]): boolean {
  const bounds = (['gt', 'gte', 'lt', 'lte'] as const).filter(
    (b) => range[b] !== undefined && range[b] !== null,
  );
  // String bounds make it a DatetimeRange: values and bounds are compared as instants.
  const datetime = bounds.some((b) => typeof range[b] === 'string');
  const num = (v: unknown): number | undefined =>
    datetime ? datetimeMs(v) : typeof v === 'number' && Number.isFinite(v) ? v : undefined;
  const limits = Object.fromEntries(
    bounds.map((b) => {
      const n = num(range[b]);
      if (n === undefined) throw bad(`invalid range bound ${b}: ${JSON.stringify(range[b])}`);
      return [b, n];
    }),
  ) as Partial<Record<'gt' | 'gte' | 'lt' | 'lte', number>>;
  return values.some((raw) => {
    const v = num(raw);
    if (v === undefined) return false;
    return (
      (limits.gt === undefined || v > limits.gt) &&
      (limits.gte === undefined || v >= limits.gte) &&
      (limits.lt === undefined || v < limits.lt) &&
      (limits.lte === undefined || v <= limits.lte)
    );
  });
}

function matchValue(match: Json, values: unknown[]): boolean {
  if ('value' in match) return values.some((v) => v === match.value);
  if ('any' in match) return values.some((v) => (match.any as unknown[]).includes(v));
  if ('except' in match) {
    const except = match.except as unknown[];
    // Qdrant: matches when some value is outside the list, and also when the field is absent.
    return values.length === 0 || values.some((v) => !except.includes(v));
  }
  throw unsupported(`match ${JSON.stringify(Object.keys(match))}`);
}

function fieldCondition(c: Json, point: StoredPoint): boolean {
  const key = c.key as string;
  const values = valuesAt(point.payload, key);
  if (isObject(c.match)) return matchValue(c.match, values);
  if (isObject(c.range)) return inRange(c.range, values);
  if (c.is_empty === true) return isEmptyAt(point.payload, key);
  if (c.is_null === true) return isNullAt(point.payload, key);
  if (isObject(c.values_count)) {
    return inRange(c.values_count, [values.filter((v) => v !== null).length]);
  }
  throw unsupported(`field condition ${JSON.stringify(Object.keys(c))}`);
}

function condition(c: unknown, point: StoredPoint): boolean {
  if (!isObject(c)) throw bad(`condition must be an object: ${JSON.stringify(c)}`);
  if ('must' in c || 'should' in c || 'must_not' in c || 'min_should' in c) return matches(c, point);
  if ('key' in c) return fieldCondition(c, point);
  if (isObject(c.is_empty)) return isEmptyAt(point.payload, String(c.is_empty.key));
  if (isObject(c.is_null)) return isNullAt(point.payload, String(c.is_null.key));
  if (Array.isArray(c.has_id)) {
    const key = idKey(point.id);
    return c.has_id.some((id) => idKey(pointId(id)) === key);
  }
  if (isObject(c.nested)) {
    const { key, filter } = c.nested as { key: string; filter: Json };
    return valuesAt(point.payload, key).some(
      (element) => isObject(element) && matches(filter, { ...point, payload: element }),
    );
  }
  throw unsupported(`condition ${JSON.stringify(Object.keys(c))}`);
}

/** Qdrant's filter semantics: all of must, none of must_not, at least one of should (if any). */
function matches(filter: unknown, point: StoredPoint): boolean {
  if (filter === undefined || filter === null) return true;
  if (!isObject(filter)) throw bad('filter must be an object');
  const must = asList(filter.must);
  const mustNot = asList(filter.must_not);
  const should = asList(filter.should);
  if (!must.every((c) => condition(c, point))) return false;
  if (mustNot.some((c) => condition(c, point))) return false;
  if (should.length > 0 && !should.some((c) => condition(c, point))) return false;
  if (isObject(filter.min_should)) {
    const { conditions, min_count } = filter.min_should as { conditions: unknown[]; min_count: number };
    if (conditions.filter((c) => condition(c, point)).length < min_count) return false;
  }
  return true;
}

// ---- vectors ---------------------------------------------------------------------------------

/** Qdrant's answer to a sparse vector given for a dense one, or the other way round. */
const wrongKind = () => bad('Wrong input: Conversion between sparse and regular vectors failed');

function denseVector(raw: unknown, size: number): number[] {
  if (isObject(raw) && 'indices' in raw) throw wrongKind();
  if (!Array.isArray(raw) || !raw.every((x) => typeof x === 'number' && Number.isFinite(x))) {
    throw Array.isArray(raw) && raw.every(Array.isArray)
      ? unsupported('multivectors')
      : bad('vector must be an array of numbers');
  }
  if (raw.length !== size) {
    throw bad(`Wrong input: Vector dimension error: expected dim: ${size}, got ${raw.length}`);
  }
  return raw as number[];
}

const U32_MAX = 0xffffffff;

/**
 * A sparse vector checked as Qdrant checks one (`at` names it in errors the way Qdrant's
 * validation does): unsigned 32-bit indices, finite values, as many values as indices, no index
 * twice. Answered sorted by index, as Qdrant stores it.
 */
function sparseVector(raw: unknown, at: string): SparseVector {
  if (Array.isArray(raw)) throw wrongKind();
  if (!isObject(raw) || !Array.isArray(raw.indices) || !Array.isArray(raw.values)) {
    throw bad(`Format error in JSON body: ${at}: a sparse vector needs \`indices\` and \`values\` lists`);
  }
  const { indices, values } = raw as { indices: unknown[]; values: unknown[] };
  if (!indices.every((i) => typeof i === 'number' && Number.isInteger(i) && i >= 0 && i <= U32_MAX)) {
    throw bad(`Format error in JSON body: ${at}.indices: expected unsigned 32-bit integers`);
  }
  if (!values.every((v) => typeof v === 'number' && Number.isFinite(v))) {
    throw bad(`Format error in JSON body: ${at}.values: expected numbers`);
  }
  if (values.length !== indices.length) {
    throw bad(
      `Validation error in JSON body: [${at}.values: Validation error: must be the same length as indices [{}]]`,
    );
  }
  if (new Set(indices).size !== indices.length) {
    throw bad(`Validation error in JSON body: [${at}.indices: Validation error: must be unique [{}]]`);
  }
  const order = indices.map((_, k) => k).sort((a, b) => (indices[a] as number) - (indices[b] as number));
  return { indices: order.map((k) => indices[k] as number), values: order.map((k) => values[k] as number) };
}

/** Dot product over the dimensions both hold, or undefined when no shared dimension scores. */
function sparseScore(query: SparseVector, stored: SparseVector): number | undefined {
  const at = new Map(stored.indices.map((index, k) => [index, stored.values[k]]));
  let score = 0;
  let overlaps = false;
  query.indices.forEach((index, k) => {
    const v = at.get(index);
    if (v === undefined) return;
    const product = v * query.values[k];
    if (product !== 0) overlaps = true;
    score += product;
  });
  return overlaps ? score : undefined;
}

/**
 * A point's vectors from an upsert: a plain list is the unnamed dense vector; an object names
 * them, "" being that same dense vector and every other key a declared sparse vector.
 */
function pointVectors(c: FakeCollection, raw: unknown, at: string): Pick<StoredPoint, 'vector' | 'sparse'> {
  if (!isObject(raw)) return { vector: denseVector(raw, c.size), sparse: new Map() };
  let vector: number[] | undefined;
  const sparse = new Map<string, SparseVector>();
  for (const [name, value] of Object.entries(raw)) {
    if (name === '') vector = denseVector(value, c.size);
    else if (c.sparseVectors.has(name)) sparse.set(name, sparseVector(value, `${at}.?`));
    else throw bad(`Wrong input: Not existing vector name error: ${name}`);
  }
  return { vector, sparse };
}

function normalized(v: number[]): number[] {
  const norm = Math.sqrt(v.reduce((s, x) => s + x * x, 0));
  return norm === 0 ? v : v.map((x) => x / norm);
}

const dot = (a: number[], b: number[]) => a.reduce((s, x, i) => s + x * b[i], 0);

/** Score of a stored vector for a query; `higherIsBetter` says how results are ordered. */
function scorer(distance: FakeCollection['distance'], query: number[]) {
  if (distance === 'Euclid') {
    return {
      higherIsBetter: false,
      score: (v: number[]) => Math.sqrt(v.reduce((s, x, i) => s + (x - query[i]) ** 2, 0)),
    };
  }
  // Cosine: vectors are normalized when stored (as Qdrant does), so the score is a dot product.
  const q = distance === 'Cosine' ? normalized(query) : query;
  return { higherIsBetter: true, score: (v: number[]) => dot(q, v) };
}

// ---- payload selection -----------------------------------------------------------------------

function selectPayload(payload: Json, withPayload: unknown): Json | undefined {
  if (withPayload === true) return payload;
  if (withPayload === false || withPayload === undefined || withPayload === null) return undefined;
  const include = Array.isArray(withPayload)
    ? withPayload
    : isObject(withPayload) && Array.isArray(withPayload.include)
      ? withPayload.include
      : undefined;
  if (include) return Object.fromEntries(Object.entries(payload).filter(([k]) => include.includes(k)));
  if (isObject(withPayload) && Array.isArray(withPayload.exclude)) {
    const exclude = withPayload.exclude;
    return Object.fromEntries(Object.entries(payload).filter(([k]) => !exclude.includes(k)));
  }
  throw bad(`invalid with_payload: ${JSON.stringify(withPayload)}`);
}

/**
 * The vectors `with_vector` asks for: Qdrant answers a plain list when the point holds only the
 * unnamed dense vector, and an object by name otherwise.
 */
function selectVectors(point: StoredPoint, withVector: unknown): unknown {
  if (withVector === false || withVector === undefined || withVector === null) return undefined;
  if (withVector !== true && !(Array.isArray(withVector) && withVector.every((n) => typeof n === 'string'))) {
    throw bad(`invalid with_vector: ${JSON.stringify(withVector)}`);
  }
  const named: Json = {
    ...(point.vector ? { '': point.vector } : {}),
    ...Object.fromEntries(point.sparse),
  };
  if (withVector === true && point.sparse.size === 0 && point.vector) return point.vector;
  return withVector === true
    ? named
    : Object.fromEntries(Object.entries(named).filter(([name]) => withVector.includes(name)));
}

function render(point: StoredPoint, body: Json, payloadByDefault: boolean): Json {
  const payload = selectPayload(point.payload, body.with_payload ?? payloadByDefault);
  const vector = selectVectors(point, body.with_vector);
  return {
    id: point.id,
    ...(payload !== undefined ? { payload } : {}),
    ...(vector !== undefined ? { vector } : {}),
  };
}

// ---- the server ------------------------------------------------------------------------------

const RANGE_INDEX_TYPES = ['integer', 'float', 'datetime'];
const INDEX_TYPES = ['keyword', 'integer', 'float', 'geo', 'text', 'bool', 'datetime', 'uuid'];

/** Starts the fake on a free port. With `apiKey`, every request must carry it (`api-key` header or bearer). */
export async function startQdrantFake(options: { apiKey?: string } = {}): Promise<QdrantFake> {
  const requests: QdrantFakeRequest[] = [];
  const collections = new Map<string, FakeCollection>();
  let operationId = 0;

  const collectionOf = (req: Request): FakeCollection => {
    const name = String(req.params.name);
    const c = collections.get(name);
    if (!c) throw new FakeError(404, `Not found: Collection \`${name}\` doesn't exist!`);
    return c;
  };
  const bodyOf = (req: Request): Json => (isObject(req.body) ? req.body : {});
  const updated = (req: Request) => ({
    operation_id: operationId,
    status: req.query.wait === 'true' ? 'completed' : 'acknowledged',
  });

  const app = express();
  app.use(express.json({ limit: '64mb' }));
  app.use((req, res, next) => {
    requests.push({
      method: req.method,
      path: req.path,
      query: Object.fromEntries(Object.entries(req.query).map(([k, v]) => [k, String(v)])),
      headers: req.headers,
      body: req.body,
    });
    if (options.apiKey) {
      const given = req.get('api-key') ?? (req.get('authorization') ?? '').replace(/^Bearer /, '');
      if (given !== options.apiKey) {
        res.status(401).type('text').send('Must provide an API key or an Authorization bearer token');
        return;
      }
    }
    next();
  });

  /** Wraps a handler in Qdrant's envelope: `{result, status: "ok", time}` or `{status: {error}, time}`. */
  const route =
    (handler: (req: Request) => unknown) =>
    (req: Request, res: Response): void => {
      const started = process.hrtime.bigint();
      const time = () => Number(process.hrtime.bigint() - started) / 1e9;
      try {
        const result = handler(req);
        res.json({ result, status: 'ok', time: time() });
      } catch (err) {
        const status = err instanceof FakeError ? err.status : 500;
        res.status(status).json({ status: { error: (err as Error).message }, time: time() });
      }
    };

  app.get('/', (_req, res) => {
    res.json({ title: 'qdrant - vector search engine', version: '1.19.0', commit: 'fake' });
  });

  app.get(
    '/collections/:name/exists',
    route((req) => ({ exists: collections.has(String(req.params.name)) })),
  );

  app.get(
    '/collections/:name',
    route((req) => {
      const c = collectionOf(req);
      const payloadSchema = Object.fromEntries(
        [...c.indexes].map(([field, type]) => [
          field,
          {
            data_type: type,
            points: [...c.points.values()].filter((p) => valuesAt(p.payload, field).some((v) => v !== null))
              .length,
          },
        ]),
      );
      return {
        status: 'green',
        optimizer_status: 'ok',
        indexed_vectors_count: 0,
        points_count: c.points.size,
        segments_count: 1,
        config: {
          params: {
            vectors: { size: c.size, distance: c.distance },
            // Like Qdrant, the key is there only when the collection has sparse vectors.
            ...(c.sparseVectors.size > 0
              ? {
                  sparse_vectors: Object.fromEntries(
                    [...c.sparseVectors].map(([n, p]) => [n, structuredClone(p)]),
                  ),
                }
              : {}),
            shard_number: 1,
            replication_factor: 1,
            write_consistency_factor: 1,
            on_disk_payload: true,
          },
          hnsw_config: {
            m: 16,
            ef_construct: 100,
            full_scan_threshold: 10000,
            max_indexing_threads: 0,
            on_disk: false,
          },
          optimizer_config: {
            deleted_threshold: 0.2,
            vacuum_min_vector_number: 1000,
            default_segment_number: 0,
            max_segment_size: null,
            memmap_threshold: null,
            indexing_threshold: 10000,
            flush_interval_sec: 5,
            max_optimization_threads: null,
          },
          wal_config: { wal_capacity_mb: 32, wal_segments_ahead: 0 },
          quantization_config: null,
        },
        payload_schema: payloadSchema,
      };
    }),
  );

  app.put(
    '/collections/:name',
    route((req) => {
      const name = String(req.params.name);
      if (collections.has(name))
        throw new FakeError(409, `Wrong input: Collection \`${name}\` already exists!`);
      const { vectors, sparse_vectors } = bodyOf(req);
      if (!isObject(vectors) || typeof vectors.size !== 'number') {
        // Qdrant also takes named dense vectors, or none at all (sparse only); the fake keeps one unnamed.
        throw unsupported(vectors === undefined ? 'a collection without a dense vector' : 'named vectors');
      }
      if (!Number.isInteger(vectors.size) || vectors.size < 1) {
        throw bad(
          `Validation error in JSON body: [vectors.size: value ${String(vectors.size)} invalid, must be 1 or larger]`,
        );
      }
      const distance = vectors.distance;
      if (distance !== 'Cosine' && distance !== 'Dot' && distance !== 'Euclid') {
        throw unsupported(`distance ${String(distance)}`);
      }
      const sparseVectors = new Map<string, Json>();
      if (sparse_vectors !== undefined && sparse_vectors !== null) {
        if (!isObject(sparse_vectors))
          throw bad('Format error in JSON body: sparse_vectors must be a map by name');
        for (const [vectorName, params] of Object.entries(sparse_vectors)) {
          if (!isObject(params)) {
            throw bad(
              `Format error in JSON body: sparse_vectors.${vectorName}: expected sparse vector params`,
            );
          }
          // "" is the unnamed dense vector's name.
          if (vectorName === '') {
            throw bad(`Wrong input: Dense and sparse vector names must be unique - duplicate found with ''`);
          }
          if (params.modifier !== undefined && params.modifier !== null && params.modifier !== 'none') {
            throw params.modifier === 'idf'
              ? unsupported('the idf modifier of sparse vectors')
              : bad(
                  `Format error in JSON body: unknown sparse vector modifier ${JSON.stringify(params.modifier)}`,
                );
          }
          if (params.index !== undefined && params.index !== null && !isObject(params.index)) {
            throw bad(`Format error in JSON body: sparse_vectors.${vectorName}.index must be an object`);
          }
          sparseVectors.set(vectorName, structuredClone(params));
        }
      }
      collections.set(name, {
        size: vectors.size,
        distance,
        sparseVectors,
        points: new Map(),
        indexes: new Map(),
      });
      return true;
    }),
  );

  app.delete(
    '/collections/:name',
    route((req) => collections.delete(String(req.params.name))),
  );

  app.put(
    '/collections/:name/index',
    route((req) => {
      const c = collectionOf(req);
      const { field_name, field_schema } = bodyOf(req);
      const type = isObject(field_schema) ? field_schema.type : field_schema;
      if (typeof field_name !== 'string' || typeof type !== 'string' || !INDEX_TYPES.includes(type)) {
        throw bad(`invalid payload index: ${JSON.stringify(bodyOf(req))}`);
      }
      c.indexes.set(field_name, type);
      operationId += 1;
      return updated(req);
    }),
  );

  app.put(
    '/collections/:name/points',
    route((req) => {
      const c = collectionOf(req);
      const { points } = bodyOf(req);
      if (!Array.isArray(points)) throw unsupported('upsert without a `points` list (batch form)');
      // Validate everything first: Qdrant applies a request all or nothing.
      const valid = points.map((p: unknown, i) => {
        if (!isObject(p)) throw bad('point must be an object');
        const { vector, sparse } = pointVectors(c, p.vector, `points[${i}].vector`);
        if (p.payload !== undefined && p.payload !== null && !isObject(p.payload)) {
          throw bad('payload must be an object');
        }
        return {
          id: pointId(p.id),
          vector: vector && c.distance === 'Cosine' ? normalized(vector) : vector,
          sparse,
          payload: structuredClone((p.payload as Json | null | undefined) ?? {}),
        };
      });
      operationId += 1;
      for (const p of valid) c.points.set(idKey(p.id), { ...p, version: operationId });
      return updated(req);
    }),
  );

  app.post(
    '/collections/:name/points',
    route((req) => {
      const c = collectionOf(req);
      const body = bodyOf(req);
      if (!Array.isArray(body.ids)) throw bad('ids must be a list');
      return body.ids.flatMap((raw: unknown) => {
        const point = c.points.get(idKey(pointId(raw)));
        return point ? [render(point, body, true)] : [];
      });
    }),
  );

  app.post(
    '/collections/:name/points/delete',
    route((req) => {
      const c = collectionOf(req);
      const body = bodyOf(req);
      let doomed: string[];
      if (Array.isArray(body.points)) doomed = body.points.map((id: unknown) => idKey(pointId(id)));
      else if (isObject(body.filter)) {
        doomed = [...c.points].filter(([, p]) => matches(body.filter, p)).map(([key]) => key);
      } else throw bad('delete needs `points` or `filter`');
      operationId += 1;
      for (const key of doomed) c.points.delete(key);
      return updated(req);
    }),
  );

  app.post(
    '/collections/:name/points/count',
    route((req) => {
      const c = collectionOf(req);
      const body = bodyOf(req);
      if (body.exact !== undefined && body.exact !== null && typeof body.exact !== 'boolean') {
        throw bad('Format error in JSON body: exact must be a boolean');
      }
      // Qdrant counts exactly by default; an approximate count may be exact too, so one answer serves.
      return { count: [...c.points.values()].filter((p) => matches(body.filter, p)).length };
    }),
  );

  app.post(
    '/collections/:name/points/scroll',
    route((req) => {
      const c = collectionOf(req);
      const body = bodyOf(req);
      const limit = typeof body.limit === 'number' ? body.limit : 10;
      const hits = [...c.points.values()].filter((p) => matches(body.filter, p));
      if (body.order_by !== undefined && body.order_by !== null) {
        return { points: orderedPage(c, hits, body, limit), next_page_offset: null };
      }
      hits.sort((a, b) => compareIds(a.id, b.id));
      const from = body.offset === undefined || body.offset === null ? undefined : pointId(body.offset);
      const start = from === undefined ? 0 : hits.findIndex((p) => compareIds(p.id, from) >= 0);
      const page = start < 0 ? [] : hits.slice(start, start + limit);
      const next = start < 0 ? undefined : hits[start + limit];
      return { points: page.map((p) => render(p, body, true)), next_page_offset: next ? next.id : null };
    }),
  );

  /** A scroll page ordered by a payload field (Qdrant needs a range-capable index on it). */
  function orderedPage(c: FakeCollection, hits: StoredPoint[], body: Json, limit: number): Json[] {
    if (body.offset !== undefined && body.offset !== null)
      throw bad('Cannot use an `offset` when using `order_by`');
    const orderBy = typeof body.order_by === 'string' ? { key: body.order_by } : (body.order_by as Json);
    const key = String(orderBy.key);
    const type = c.indexes.get(key);
    if (!type || !RANGE_INDEX_TYPES.includes(type)) {
      throw bad(`No range index for \`order_by\` key: \`${key}\`. Please create one to use \`order_by\`.`);
    }
    const valueOf = (v: unknown): number | undefined =>
      type === 'datetime' ? datetimeMs(v) : typeof v === 'number' && Number.isFinite(v) ? v : undefined;
    const descending = orderBy.direction === 'desc';
    const startFrom = orderBy.start_from === undefined ? undefined : valueOf(orderBy.start_from);
    return hits
      .flatMap((p) => {
        // Points without a value for the key are left out, as Qdrant reads them from the index.
        const value = valuesAt(p.payload, key)
          .map(valueOf)
          .find((v) => v !== undefined);
        return value === undefined ? [] : [{ p, value }];
      })
      .filter(
        ({ value }) => startFrom === undefined || (descending ? value <= startFrom : value >= startFrom),
      )
      .sort((a, b) => (descending ? b.value - a.value : a.value - b.value) || compareIds(a.p.id, b.p.id))
      .slice(0, limit)
      .map(({ p, value }) => ({
        ...render(p, body, true),
        // Qdrant's datetime index keeps microseconds since the epoch.
        order_value: type === 'datetime' ? value * 1000 : value,
      }));
  }

  app.post(
    '/collections/:name/points/query',
    route((req) => {
      const c = collectionOf(req);
      const body = bodyOf(req);
      if (body.prefetch !== undefined && body.prefetch !== null) throw unsupported('prefetch');
      // No `using` (or "") is the unnamed dense vector; any other name must be a sparse vector.
      const using = body.using ?? '';
      if (typeof using !== 'string') throw bad('Format error in JSON body: using must be a string');
      if (using !== '' && !c.sparseVectors.has(using)) {
        throw bad(`Wrong input: Not existing vector name error: ${using}`);
      }
      const nearest = isObject(body.query) && 'nearest' in body.query;
      if (nearest && Object.keys(body.query as Json).some((k) => k !== 'nearest')) {
        throw unsupported(`query options ${JSON.stringify(Object.keys(body.query as Json))}`);
      }
      const raw = nearest ? (body.query as Json).nearest : body.query;
      const sparse = isObject(raw) && 'indices' in raw;
      if (!Array.isArray(raw) && !sparse) throw unsupported('a query other than a nearest-vector search');
      if (sparse !== (using !== '')) throw wrongKind();
      let score: (p: StoredPoint) => number | undefined;
      let higherIsBetter = true;
      if (sparse) {
        const query = sparseVector(raw, nearest ? 'query.nearest' : 'query');
        // As in Qdrant, only points sharing a scoring dimension with the query are found.
        score = (p) => {
          const stored = p.sparse.get(using);
          return stored && sparseScore(query, stored);
        };
      } else {
        const dense = scorer(c.distance, denseVector(raw, c.size));
        higherIsBetter = dense.higherIsBetter;
        score = (p) => p.vector && dense.score(p.vector);
      }
      const limit = typeof body.limit === 'number' ? body.limit : 10;
      const offset = typeof body.offset === 'number' ? body.offset : 0;
      const threshold = typeof body.score_threshold === 'number' ? body.score_threshold : undefined;
      const scored = [...c.points.values()]
        .filter((p) => matches(body.filter, p))
        .flatMap((p) => {
          const s = score(p);
          return s === undefined ? [] : [{ p, score: s }];
        })
        .filter(
          (s) => threshold === undefined || (higherIsBetter ? s.score >= threshold : s.score <= threshold),
        )
        .sort(
          (a, b) => (higherIsBetter ? b.score - a.score : a.score - b.score) || compareIds(a.p.id, b.p.id),
        );
      return {
        points: scored.slice(offset, offset + limit).map(({ p, score }) => ({
          ...render(p, body, false),
          version: p.version,
          score,
        })),
      };
    }),
  );

  app.use((req, res) => {
    res.status(404).json({ status: { error: `the fake has no ${req.method} ${req.path}` }, time: 0 });
  });
  // Malformed JSON bodies get Qdrant's error envelope rather than Express's HTML page.
  app.use((err: Error, _req: Request, res: Response, _next: NextFunction) => {
    res.status(400).json({ status: { error: `Format error in JSON body: ${err.message}` }, time: 0 });
  });

  const server: Server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    collections,
    close: () =>
      new Promise((resolve) => {
        // The client keeps sockets alive; drop them so close does not wait for their timeout.
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * plat's own lifecycle store, for clusters without ISM: policies and managed-index records kept in
 * two hidden indices of the cluster itself, as ISM keeps its own. The state lives with the indices
 * it describes, survives restarts of plat and of the node, and every plat process reads the same.
 */
import type { IsmPolicy } from '../ism-policy';
import { templatesOf } from './ism-template-match';
import { OpenSearchError, type OpenSearchClient } from '../opensearch-client';
import type { ManagedIndex } from './managed-index';

export const POLICIES_INDEX = 'plat-lifecycle-policies';
export const MANAGED_INDEX = 'plat-lifecycle-managed';

/** A policy as stored, with the version numbers an update must name (ISM's `_seq_no`, `_primary_term`). */
export interface StoredPolicy {
  _id: string;
  _version: number;
  _seq_no: number;
  _primary_term: number;
  policy: IsmPolicy & { policy_id: string; last_updated_time: number; schema_version: number };
}

/** A managed-index record with the version numbers its next write must name. */
export interface StoredManagedIndex {
  record: ManagedIndex;
  seq_no: number;
  primary_term: number;
}

/** A write to the managed-index records: an update guarded by its versions, a new record, a removal. */
export type ManagedWrite =
  | { op: 'update'; record: ManagedIndex; seq_no: number; primary_term: number }
  | { op: 'create'; record: ManagedIndex }
  | { op: 'remove'; index: string; seq_no?: number; primary_term?: number }
  | { op: 'claimed_until'; time: number };

/** The engine's own document among the records: no index name can contain `#`. */
const WATERMARK_ID = '#claimed-until';

const STORE_SETTINGS = {
  'index.hidden': true,
  number_of_shards: 1,
  auto_expand_replicas: '0-1',
};

type SearchHits<T> = {
  hits: { hits: { _id: string; _source: T; _seq_no: number; _primary_term: number; sort?: unknown[] }[] };
};

export class PlatLifecycleStore {
  private ready = false;

  constructor(private readonly client: OpenSearchClient) {}

  /** Creates the two store indices when missing (idempotent, safe to race). */
  async ensure(): Promise<void> {
    if (this.ready) return;
    for (const [index, properties] of [
      [POLICIES_INDEX, { 'policy.policy_id': { type: 'keyword' } }],
      [MANAGED_INDEX, { index: { type: 'keyword' }, policy_id: { type: 'keyword' } }],
    ] as const) {
      try {
        await this.client.request('PUT', `/${index}`, {
          settings: STORE_SETTINGS,
          // Records are read whole; only the fields searched on are indexed.
          mappings: { dynamic: false, properties: nest(properties) },
        });
      } catch (err) {
        if (!(err instanceof OpenSearchError && err.type === 'resource_already_exists_exception')) throw err;
      }
    }
    this.ready = true;
  }

  async getPolicy(id: string): Promise<StoredPolicy | undefined> {
    await this.ensure();
    const doc = await this.client.getOrUndefined<{
      _id: string;
      _version: number;
      _seq_no: number;
      _primary_term: number;
      found: boolean;
      _source: { policy: StoredPolicy['policy'] };
    }>(`/${POLICIES_INDEX}/_doc/${encodeURIComponent(id)}`);
    if (!doc?.found) return undefined;
    return {
      _id: doc._id,
      _version: doc._version,
      _seq_no: doc._seq_no,
      _primary_term: doc._primary_term,
      policy: doc._source.policy,
    };
  }

  async listPolicies(): Promise<StoredPolicy[]> {
    await this.ensure();
    const all = await this.searchAll<{ policy: StoredPolicy['policy'] }>(POLICIES_INDEX, 'policy.policy_id');
    return all.map((h) => ({
      _id: h._id,
      _version: 0,
      _seq_no: h._seq_no,
      _primary_term: h._primary_term,
      policy: h._source.policy,
    }));
  }

  /**
   * Writes a policy: a new one, or a new revision of the one whose versions are named (as ISM's
   * `if_seq_no` / `if_primary_term`); a stale pair is refused with the cluster's version conflict.
   */
  async putPolicy(
    id: string,
    policy: IsmPolicy,
    now: number,
    expected?: { seq_no: number; primary_term: number },
  ): Promise<StoredPolicy> {
    await this.ensure();
    const stored = {
      ...policy,
      policy_id: id,
      last_updated_time: now,
      schema_version: 1,
      ...(policy.ism_template
        ? {
            ism_template: templatesOf(policy).map((t) => ({ ...t, last_updated_time: now })),
          }
        : {}),
    };
    const guard = expected
      ? `if_seq_no=${expected.seq_no}&if_primary_term=${expected.primary_term}`
      : 'op_type=create';
    const res = await this.client.request<{ _version: number; _seq_no: number; _primary_term: number }>(
      'PUT',
      `/${POLICIES_INDEX}/_doc/${encodeURIComponent(id)}?${guard}&refresh=true`,
      { policy: stored },
    );
    return {
      _id: id,
      _version: res._version,
      _seq_no: res._seq_no,
      _primary_term: res._primary_term,
      policy: stored,
    };
  }

  /** Deletes a policy; false when there was none. Indices it manages keep their revision (as in ISM). */
  async deletePolicy(id: string): Promise<boolean> {
    await this.ensure();
    try {
      await this.client.request('DELETE', `/${POLICIES_INDEX}/_doc/${encodeURIComponent(id)}?refresh=true`);
      return true;
    } catch (err) {
      if (err instanceof OpenSearchError && err.status === 404) return false;
      throw err;
    }
  }

  /** Every managed-index record, with its versions. */
  async managed(): Promise<StoredManagedIndex[]> {
    return (await this.engineState()).managed;
  }

  /**
   * The records, and the newest index creation time the engine has already seen: an ism_template
   * claims only indices created after it, once (as ISM claims at creation), so an index whose policy
   * was removed is not claimed again.
   */
  async engineState(): Promise<{ managed: StoredManagedIndex[]; claimedUntil?: number }> {
    await this.ensure();
    const hits = await this.searchAll<ManagedIndex & { claimed_until?: number }>(MANAGED_INDEX, 'index');
    const watermark = hits.find((h) => h._id === WATERMARK_ID)?._source.claimed_until;
    return {
      managed: hits
        .filter((h) => h._id !== WATERMARK_ID)
        .map((h) => ({ record: h._source, seq_no: h._seq_no, primary_term: h._primary_term })),
      claimedUntil: watermark,
    };
  }

  /**
   * Applies the writes in one bulk call. Each update names the versions it read, so a record changed
   * meanwhile (a user attaching or retrying during a pass) is left to the next pass. Returns the
   * indices whose write was refused, with the reason.
   */
  async write(writes: ManagedWrite[]): Promise<{ index: string; reason: string }[]> {
    if (!writes.length) return [];
    await this.ensure();
    const lines: string[] = [];
    for (const w of writes) {
      if (w.op === 'claimed_until') {
        lines.push(JSON.stringify({ index: { _index: MANAGED_INDEX, _id: WATERMARK_ID } }));
        lines.push(JSON.stringify({ claimed_until: w.time }));
        continue;
      }
      const id = w.op === 'remove' ? w.index : w.record.index;
      const guard =
        w.op === 'update' || (w.op === 'remove' && w.seq_no !== undefined)
          ? { if_seq_no: w.seq_no, if_primary_term: w.primary_term }
          : {};
      const meta = { _index: MANAGED_INDEX, _id: id, ...guard };
      if (w.op === 'remove') lines.push(JSON.stringify({ delete: meta }));
      else
        lines.push(
          JSON.stringify({ [w.op === 'create' ? 'create' : 'index']: meta }),
          JSON.stringify(w.record),
        );
    }
    const res = await this.client.bulk<{
      errors: boolean;
      items: Record<string, { _id: string; status: number; error?: { type: string; reason: string } }>[];
    }>(`${lines.join('\n')}\n`, 'refresh=true');
    if (!res.errors) return [];
    return res.items
      .map((item) => Object.values(item)[0])
      .filter((r) => r.error && !(r.status === 404))
      .map((r) => ({ index: r._id, reason: `${r.error!.type}: ${r.error!.reason}` }));
  }

  /** Every document of a store index, in pages (search_after on a keyword field). */
  private async searchAll<T>(index: string, sortField: string): Promise<SearchHits<T>['hits']['hits']> {
    const out: SearchHits<T>['hits']['hits'] = [];
    let after: unknown[] | undefined;
    for (;;) {
      const page = await this.client.request<SearchHits<T>>('POST', `/${index}/_search`, {
        size: 5000,
        seq_no_primary_term: true,
        sort: [{ [sortField]: 'asc' }],
        ...(after ? { search_after: after } : {}),
      });
      out.push(...page.hits.hits);
      if (page.hits.hits.length < 5000) return out;
      after = page.hits.hits[page.hits.hits.length - 1].sort;
    }
  }
}

/** `{'policy.policy_id': m}` → `{policy: {properties: {policy_id: m}}}`. */
function nest(flat: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [path, mapping] of Object.entries(flat)) {
    const parts = path.split('.');
    let node = out;
    for (const part of parts.slice(0, -1))
      node = ((node[part] ??= { properties: {} }) as { properties: Record<string, unknown> }).properties;
    node[parts[parts.length - 1]] = mapping;
  }
  return out;
}

/**
 * A FAKE of the ISM plugin's wire format, for tests only: no registry we reach serves the real
 * plugin. It sits in front of a real OpenSearch node, answers `_plugins/_ism/*` (policies with
 * `_seq_no`/`_primary_term` and version conflicts, add, remove, retry, explain) in ISM's shapes, lists
 * itself in `_cat/plugins` as `fake-ism` (component `opensearch-index-management`), marks every
 * answer with `x-fake-ism: true`, and passes everything else to the node. It runs no policy.
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeIsm {
  url: string;
  /** The requests the fake answered itself, in order (method and path). */
  calls: string[];
  stop(): Promise<void>;
}

type CatIndex = { index: string; uuid: string };
type Policy = { seq_no: number; primary_term: 1; version: number; body: Record<string, unknown> };

export async function startFakeIsm(nodeUrl: string): Promise<FakeIsm> {
  const policies = new Map<string, Policy>();
  const managed = new Map<string, { policy_id: string; uuid: string; failed: boolean }>();
  const calls: string[] = [];
  let seq = 0;

  const resolve = async (pattern: string) => {
    const res = await fetch(
      `${nodeUrl}/_cat/indices/${encodeURIComponent(pattern)}?format=json&h=index,uuid&s=index`,
    );
    if (res.status === 404) return undefined;
    return (await res.json()) as CatIndex[];
  };
  const stored = (id: string, p: Policy) => ({
    _id: id,
    _version: p.version,
    _seq_no: p.seq_no,
    _primary_term: p.primary_term,
    policy: p.body,
  });
  /** ISM's answer to add, remove and retry: how many indices `acted` on, and why each other one failed. */
  const updated = (
    indices: CatIndex[],
    acted: (i: CatIndex) => boolean,
    reason: string,
  ): [number, unknown] => {
    const failed = indices
      .filter((i) => !acted(i))
      .map((i) => ({ index_name: i.index, index_uuid: i.uuid, reason }));
    const n = indices.length - failed.length;
    return [200, { updated_indices: n, failures: failed.length > 0, failed_indices: failed }];
  };

  async function ism(method: string, url: URL, body: unknown): Promise<[number, unknown]> {
    const [, , , kind, target] = url.pathname.split('/').map(decodeURIComponent);
    if (kind === 'policies' && !target && method === 'GET')
      return [
        200,
        {
          policies: [...policies].map(([id, p]) => ({ ...stored(id, p), policy: p.body })),
          total_policies: policies.size,
        },
      ];
    if (kind === 'policies') {
      const current = policies.get(target);
      if (method === 'GET')
        return current
          ? [200, stored(target, current)]
          : [404, error('status_exception', 'Policy not found')];
      if (method === 'DELETE') {
        if (!current) return [404, { _id: target, result: 'not_found' }];
        policies.delete(target);
        return [200, { _id: target, result: 'deleted' }];
      }
      if (method === 'PUT') {
        const ifSeq = url.searchParams.get('if_seq_no');
        if (current && (ifSeq === null || Number(ifSeq) !== current.seq_no))
          return [
            409,
            error(
              'version_conflict_engine_exception',
              `[${target}]: version conflict, required seqNo [${ifSeq}], current document has seqNo [${current.seq_no}]`,
            ),
          ];
        if (!current && ifSeq !== null)
          return [404, error('document_missing_exception', `[${target}]: document missing`)];
        const policy = (body as { policy?: Record<string, unknown> }).policy;
        if (!policy) return [400, error('illegal_argument_exception', 'Required [policy] is missing')];
        // ISM stores each action with its default retry spelt out, and stamps id and time.
        const states = (policy.states as { actions?: Record<string, unknown>[] }[]).map((s) => ({
          ...s,
          actions: (s.actions ?? []).map((a) => ({
            retry: { count: 3, backoff: 'exponential', delay: '1m' },
            ...a,
          })),
        }));
        const next: Policy = {
          seq_no: seq++,
          primary_term: 1,
          version: (current?.version ?? 0) + 1,
          body: {
            policy_id: target,
            last_updated_time: Date.now(),
            schema_version: 21,
            error_notification: null,
            ...policy,
            states,
          },
        };
        policies.set(target, next);
        return [current ? 200 : 201, { ...stored(target, next), policy: { policy: next.body } }];
      }
    }
    const indices = await resolve(target);
    if (!indices) return [404, error('index_not_found_exception', `no such index [${target}]`)];
    if (kind === 'add') {
      const policyId = (body as { policy_id?: string }).policy_id ?? '';
      if (!policies.has(policyId))
        return [404, error('status_exception', `Could not find policy [${policyId}]`)];
      const attach = (i: CatIndex) => {
        if (managed.has(i.index)) return false;
        managed.set(i.index, { policy_id: policyId, uuid: i.uuid, failed: false });
        return true;
      };
      return updated(
        indices,
        attach,
        'This index already has a policy, use the update policy API to update index policies',
      );
    }
    if (kind === 'remove')
      return updated(indices, (i) => managed.delete(i.index), 'This index does not have a policy to remove');
    if (kind === 'retry')
      return updated(indices, (i) => !!managed.get(i.index)?.failed, 'This index is not in failed state.');
    if (kind === 'explain') {
      const out: Record<string, unknown> = {};
      for (const i of indices) {
        const m = managed.get(i.index);
        out[i.index] = m
          ? {
              'index.plugins.index_state_management.policy_id': m.policy_id,
              'index.opendistro.index_state_management.policy_id': m.policy_id,
              index: i.index,
              index_uuid: i.uuid,
              policy_id: m.policy_id,
              enabled: true,
            }
          : {
              'index.plugins.index_state_management.policy_id': null,
              'index.opendistro.index_state_management.policy_id': null,
              enabled: null,
            };
      }
      return [200, { ...out, total_managed_indices: indices.filter((i) => managed.has(i.index)).length }];
    }
    return [
      400,
      error('illegal_argument_exception', `the fake ISM does not serve ${method} ${url.pathname}`),
    ];
  }

  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks).toString();
    const url = new URL(req.url ?? '/', 'http://fake');
    res.setHeader('x-fake-ism', 'true');
    try {
      if (url.pathname.startsWith('/_plugins/_ism/')) {
        calls.push(`${req.method} ${url.pathname}`);
        const [status, answer] = await ism(req.method ?? 'GET', url, raw ? JSON.parse(raw) : {});
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
        return;
      }
      const upstream = await fetch(`${nodeUrl}${req.url}`, {
        method: req.method,
        headers: req.headers['content-type'] ? { 'content-type': req.headers['content-type'] } : {},
        body: raw || undefined,
      });
      let text = await upstream.text();
      if (url.pathname === '/_cat/plugins' && url.searchParams.get('format') === 'json')
        text = JSON.stringify([
          ...(JSON.parse(text) as unknown[]),
          { name: 'fake-ism', component: 'opensearch-index-management', version: '2.19.6.0-fake' },
        ]);
      res
        .writeHead(upstream.status, {
          'content-type': upstream.headers.get('content-type') ?? 'application/json',
        })
        .end(text);
    } catch (err) {
      res
        .writeHead(500, { 'content-type': 'application/json' })
        .end(JSON.stringify(error('fake_ism_failure', String(err))));
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls,
    stop: () => new Promise((r) => server.close(() => r())),
  };
}

const error = (type: string, reason: string) => ({ error: { type, reason, root_cause: [{ type, reason }] } });

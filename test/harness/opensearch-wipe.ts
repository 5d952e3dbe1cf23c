/**
 * Empties a test OpenSearch node back to what it held when it started (`fresh`, from
 * test/harness/opensearch-contents.ts): removes ISM policies, data streams, indices (hidden and
 * closed ones, plat's lifecycle store among them; write blocks cleared first), index, component and
 * legacy templates, ingest and search pipelines, stored scripts, and resets cluster settings; then
 * checks the node holds what it held fresh, and throws naming what is left otherwise.
 */
import type { OpenSearchCall } from './opensearch-call';
import {
  clusterMetadata,
  clusterSettings,
  contentsDiff,
  hasIsm,
  ismPolicyIds,
  nodeContents,
  type ClusterMetadata,
  type NodeContents,
} from './opensearch-contents';

/** Index blocks that refuse a delete (`write` and `read` do not). */
const DELETE_BLOCKS = ['read_only', 'read_only_allow_delete', 'metadata'];

/** Wipes the node behind `call` back to `fresh`; throws when it cannot. */
export async function wipeNode(call: OpenSearchCall, fresh: NodeContents): Promise<void> {
  const added = (now: string[], before: string[]) => now.filter((n) => !before.includes(n));
  if (await hasIsm(call))
    for (const id of added(await ismPolicyIds(call), fresh.ismPolicies))
      await call('DELETE', `/_plugins/_ism/policies/${enc(id)}`, undefined, { missingOk: true });

  let meta = await clusterMetadata(call);
  const named = (part: string, inner: string) => Object.keys(entry(meta, part, inner) ?? {});
  for (const stream of named('data_stream', 'data_stream'))
    await call('DELETE', `/_data_stream/${enc(stream)}`, undefined, { missingOk: true });

  meta = await clusterMetadata(call);
  const indices = added(Object.keys(meta.indices ?? {}), fresh.indices);
  // One block a request: the cluster lets a blocked index change only that setting.
  for (const block of DELETE_BLOCKS) {
    const blocked = indices.filter((i) => meta.indices?.[i].settings?.index?.blocks?.[block] === 'true');
    for (const batch of batches(blocked))
      await call('PUT', `/${batch}/_settings`, { [`index.blocks.${block}`]: null });
  }
  for (const batch of batches(indices)) await call('DELETE', `/${batch}`, undefined, { missingOk: true });

  const gone = async (route: string, names: string[]) => {
    for (const name of names) await call('DELETE', `${route}/${enc(name)}`, undefined, { missingOk: true });
  };
  // Index templates first: a component template in use cannot go.
  await gone('/_index_template', named('index_template', 'index_template'));
  await gone('/_component_template', named('component_template', 'component_template'));
  await gone('/_template', Object.keys((meta.templates as object) ?? {}));
  await gone('/_ingest/pipeline', ids(entry(meta, 'ingest', 'pipeline')));
  await gone('/_search/pipeline', ids(entry(meta, 'search_pipeline', 'pipeline')));
  await gone('/_scripts', Object.keys((meta.stored_scripts as object) ?? {}));

  const settings = await clusterSettings(call);
  const reset = (scope: 'persistent' | 'transient') =>
    Object.fromEntries(
      Object.keys({ ...settings[scope], ...fresh.settings[scope] })
        .filter((k) => JSON.stringify(settings[scope][k]) !== JSON.stringify(fresh.settings[scope][k]))
        .map((k) => [k, fresh.settings[scope][k] ?? null]),
    );
  const [persistent, transient] = [reset('persistent'), reset('transient')];
  if (Object.keys({ ...persistent, ...transient }).length)
    await call('PUT', '/_cluster/settings', { persistent, transient });

  const left = contentsDiff(await nodeContents(call), fresh);
  if (left.length) throw new Error(`the wiped node still differs from a fresh one:\n${left.join('\n')}`);
}

const enc = encodeURIComponent;

function entry(meta: ClusterMetadata, part: string, inner: string): unknown {
  return (meta[part] as Record<string, unknown> | undefined)?.[inner];
}

function ids(pipelines: unknown): string[] {
  return ((pipelines as { id: string }[] | undefined) ?? []).map((p) => p.id);
}

/** Comma-joined, URL-encoded names, in batches that keep the request line short (OpenSearch takes 4 KB). */
function batches(names: string[], maxChars = 3000): string[] {
  const out: string[] = [];
  let current = '';
  for (const name of names.map(enc)) {
    if (current && current.length + name.length + 1 > maxChars) {
      out.push(current);
      current = '';
    }
    current = current ? `${current},${name}` : name;
  }
  return current ? [...out, current] : out;
}

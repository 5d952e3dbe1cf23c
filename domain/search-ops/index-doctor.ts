/**
 * `doctor` for a rolling index (docs/search-lifecycle.md#doctor): looks for the cause of each of the
 * four broken set-ups the search-lifecycle requirements list, on the live cluster:
 *   1. rollover cannot find its alias: the next index is not matched by the rolling template (no
 *      template, or another one wins on priority), the template lacks the rollover_alias setting
 *      (ISM), or the managed index is not the alias's write index;
 *   2. writes go to the old index after a rollover: no write index on the alias, or writers using a
 *      concrete index name (documents newer than the rollover in an older index);
 *   3. the policy is not attached to a new index: no ism_template pattern matches it, another policy
 *      wins on priority, or the index predates the policy (existing indices need an explicit attach);
 *   4. an aggregation on a text field: which fields are text, and the keyword sub-field to use.
 */
import { firstIndexName } from './index-template';
import { patternMatches, templatePolicyFor, templatesOf } from './lifecycle/ism-template-match';
import { indexIdentities, writeIndexAmong } from './lifecycle/cluster-snapshot';
import { lifecycleManager } from './lifecycle/lifecycle-manager-for';
import { rolloverAliasIn } from './settings-shape';
import type { OpenSearchClient } from './opensearch-client';

export interface Finding {
  symptom: 1 | 2 | 3 | 4;
  /** The symptom as a user meets it. */
  title: string;
  status: 'ok' | 'problem';
  /** What was checked, or what is wrong. */
  detail: string;
  /** What to do, when something is wrong. */
  fix?: string;
}

export interface DoctorReport {
  alias: string;
  engine: 'ism' | 'plat';
  write_index?: string;
  findings: Finding[];
  problems: number;
}

const TITLES = {
  1: 'rollover: missing rollover_alias / index not matched by the template',
  2: 'new index created but writes go to the old one',
  3: 'policy not attached to a new index',
  4: 'aggregation on a text field',
} as const;

type Aliases = Record<string, { aliases: Record<string, { is_write_index?: boolean }> }>;
type Templates = {
  index_templates: {
    name: string;
    index_template: {
      index_patterns: string[];
      priority?: number;
      template?: { settings?: Record<string, unknown> };
    };
  }[];
};
type Mapping = Record<string, { mappings: { properties?: Record<string, FieldMapping> } }>;
type FieldMapping = {
  type?: string;
  fields?: Record<string, { type?: string }>;
  properties?: Record<string, FieldMapping>;
};

const enc = encodeURIComponent;

export async function diagnose(
  client: OpenSearchClient,
  alias: string,
  opts: { field?: string; timestampField?: string } = {},
): Promise<DoctorReport> {
  const manager = await lifecycleManager(client);
  const findings: Finding[] = [];
  const add = (symptom: Finding['symptom'], status: Finding['status'], detail: string, fix?: string) =>
    findings.push({ symptom, title: TITLES[symptom], status, detail, ...(fix ? { fix } : {}) });

  const aliases = await client.getOrUndefined<Aliases>(`/_alias/${enc(alias)}`);
  const concrete = !aliases && (await client.getOrUndefined(`/${enc(alias)}/_settings`)) !== undefined;
  const members = Object.entries(aliases ?? {})
    .map(([index, a]) => ({ index, is_write_index: a.aliases[alias]?.is_write_index }))
    .sort((a, b) => a.index.localeCompare(b.index));
  const explicit = members.filter((m) => m.is_write_index === true);
  const writeIndex = writeIndexAmong(members);
  // Read once: the rollover time (symptom 2) and ism_template's creation rule (symptom 3) need it.
  const created = writeIndex ? (await indexIdentities(client, writeIndex))[0].creation_date : 0;

  // 2. Where writes go.
  if (concrete)
    add(
      2,
      'problem',
      `${alias} is a concrete index, not an alias: writers targeting ${alias} never roll over`,
      `reindex ${alias} into ${firstIndexName(alias)}, delete ${alias}, then bootstrap ${alias} (plat index bootstrap ${alias})`,
    );
  else if (!aliases) add(2, 'problem', `no alias ${alias} exists`, `plat index bootstrap ${alias}`);
  else if (!writeIndex)
    add(
      2,
      'problem',
      `alias ${alias} points at ${members.map((m) => m.index).join(', ')} and none is its write index (is_write_index)`,
      `POST /_aliases {"actions":[{"add":{"index":"${members[members.length - 1].index}","alias":"${alias}","is_write_index":true}}]}`,
    );
  else {
    const older = members.filter((m) => m.index !== writeIndex).map((m) => m.index);
    const strays = older.length
      ? await writesAfterRollover(client, alias, writeIndex, created, opts.timestampField ?? '@timestamp')
      : [];
    if (strays.length)
      add(
        2,
        'problem',
        strays
          .map((s) => `${s.count} documents in ${s.index} are newer than the rollover to ${writeIndex}`)
          .join('; ') + ': writers use a concrete index name instead of the alias',
        `point every writer at the alias ${alias}, never at ${alias}-NNNNNN`,
      );
    else
      add(
        2,
        'ok',
        `writes to ${alias} go to ${writeIndex} (is_write_index: ${explicit.length ? 'true' : 'implied, single index'}); no document newer than the rollover in older indices`,
      );
  }

  // 1. The template the next index gets, and the alias rollover will use.
  const next = writeIndex ? nextIndexName(writeIndex) : firstIndexName(alias);
  const templates = (await client.getOrUndefined<Templates>('/_index_template'))?.index_templates ?? [];
  const matching = templates
    .filter((t) => t.index_template.index_patterns.some((p) => patternMatches(p, next)))
    .sort((a, b) => (b.index_template.priority ?? 0) - (a.index_template.priority ?? 0));
  const winner = matching[0];
  const ownTemplate = templates.find((t) => t.name === alias);
  if (!winner)
    add(
      1,
      'problem',
      `no index template matches ${next}: the next index gets no settings, mappings${manager.engine === 'ism' ? ' or rollover_alias setting' : ''}`,
      `plat index bootstrap ${alias} (creates the template of ${alias}-*)`,
    );
  else if (ownTemplate && winner.name !== alias)
    add(
      1,
      'problem',
      `template ${winner.name} (priority ${winner.index_template.priority ?? 0}) wins over ${alias} (priority ${ownTemplate.index_template.priority ?? 0}) for ${next}: only the highest-priority template applies`,
      `raise the priority of ${alias} above ${winner.index_template.priority ?? 0}, or narrow the patterns of ${winner.name}`,
    );
  else if (manager.engine === 'ism' && rolloverAliasIn(winner.index_template.template?.settings) !== alias)
    add(
      1,
      'problem',
      `template ${winner.name} matches ${next} but does not set plugins.index_state_management.rollover_alias to ${alias}`,
      `add "plugins.index_state_management.rollover_alias": "${alias}" to the template settings (indices created before need it set on them)`,
    );
  else if (manager.engine === 'ism' && writeIndex && !(await indexRolloverAlias(client, writeIndex)))
    add(
      1,
      'problem',
      `${writeIndex} has no plugins.index_state_management.rollover_alias setting: it was created before the template had it, or not from it`,
      `PUT /${writeIndex}/_settings {"plugins.index_state_management.rollover_alias": "${alias}"}`,
    );
  else {
    const failed = await failedRollovers(manager, alias);
    if (failed.length)
      add(
        1,
        'problem',
        failed.map((f) => `rollover of ${f.index} failed: ${f.cause}`).join('; '),
        `make ${failed[0].index} the write index of ${alias} (is_write_index: true), then plat index retry ${failed[0].index}`,
      );
    else
      add(
        1,
        'ok',
        `template ${winner.name} applies to the next index ${next}${manager.engine === 'ism' ? ` with rollover_alias ${alias}` : ''}`,
      );
  }

  // 3. The policy of the newest index.
  if (writeIndex) {
    const explain = (await manager.explain(writeIndex)) as Record<string, { policy_id?: string | null }>;
    const policyId = explain[writeIndex]?.policy_id;
    if (policyId) add(3, 'ok', `${writeIndex} is managed by policy ${policyId}`);
    else {
      const policies = await manager.listPolicies();
      const claimers = policies.filter((p) =>
        templatesOf(p.policy).some((t) => t.index_patterns.some((pat) => patternMatches(pat, writeIndex))),
      );
      const claim = templatePolicyFor({ index: writeIndex, creation_date: created }, policies);
      if (!claimers.length)
        add(
          3,
          'problem',
          `no policy's ism_template matches ${writeIndex}` +
            (policies.length
              ? ` (patterns: ${policies.flatMap((p) => templatesOf(p.policy).flatMap((t) => t.index_patterns.map((pat) => `${pat} in ${p._id}`))).join(', ')})`
              : ' (there is no policy)'),
          `set the policy's ism_template index_patterns to ["${alias}-*"], and attach the existing indices: plat index attach '${alias}-*' POLICY`,
        );
      else if (claim)
        add(
          3,
          'ok',
          `policy ${claim.policy._id} claims ${writeIndex} but has not attached it yet (the lifecycle engine attaches new indices at its next pass)`,
          `wait for the next pass, or plat index attach ${writeIndex} ${claim.policy._id}`,
        );
      else
        add(
          3,
          'problem',
          `${writeIndex} was created before the ism_template of ${claimers.map((p) => p._id).join(', ')} was last updated: a template attaches only to indices created after it`,
          `plat index attach '${alias}-*' ${claimers[0]._id}`,
        );
    }
  }

  // 4. Fields that cannot be aggregated.
  if (writeIndex || concrete) {
    const target = writeIndex ?? alias;
    const mapping = await client.request<Mapping>('GET', `/${enc(target)}/_mapping`);
    const fields = textFields(Object.values(mapping)[0]?.mappings.properties ?? {});
    if (opts.field) {
      const f = fields.find((x) => x.field === opts.field);
      if (!f) add(4, 'ok', `${opts.field} is not a text field of ${target}: it can be aggregated as mapped`);
      else if (f.keyword)
        add(
          4,
          'problem',
          `${opts.field} is a text field: text fields are not optimised for aggregations and sorting`,
          `aggregate on ${f.keyword} instead`,
        );
      else
        add(
          4,
          'problem',
          `${opts.field} is a text field without a keyword sub-field: an aggregation on it fails`,
          `add a keyword sub-field to ${opts.field} in the template (new indices get it), or enable fielddata on it temporarily`,
        );
    } else
      add(
        4,
        'ok',
        fields.length
          ? `text fields cannot be aggregated; use: ${fields.map((f) => (f.keyword ? `${f.field} → ${f.keyword}` : `${f.field} (no keyword sub-field)`)).join(', ')}`
          : `${target} has no text field`,
      );
  }

  return {
    alias,
    engine: manager.engine,
    ...(writeIndex ? { write_index: writeIndex } : {}),
    findings: findings.sort((a, b) => a.symptom - b.symptom),
    problems: findings.filter((f) => f.status === 'problem').length,
  };
}

/** Managed indices of the rolling index whose rollover action failed, with the cause. */
async function failedRollovers(
  manager: Awaited<ReturnType<typeof lifecycleManager>>,
  alias: string,
): Promise<{ index: string; cause: string }[]> {
  let explain: Record<string, unknown>;
  try {
    explain = await manager.explain(`${alias}-*`);
  } catch {
    return [];
  }
  return Object.entries(explain)
    .filter(([k]) => k !== 'total_managed_indices')
    .map(([index, e]) => ({
      index,
      e: e as { action?: { name: string; failed?: boolean }; info?: { message?: string; cause?: string } },
    }))
    .filter(({ e }) => e.action?.name === 'rollover' && e.action.failed)
    .map(({ index, e }) => ({ index, cause: e.info?.cause ?? e.info?.message ?? 'unknown' }));
}

/** `logs-000007` → `logs-000008`, as rollover names it. */
function nextIndexName(index: string): string {
  const m = /^(.*-)(\d+)$/.exec(index);
  return m ? `${m[1]}${String(Number(m[2]) + 1).padStart(m[2].length, '0')}` : `${index}-000002`;
}

async function indexRolloverAlias(client: OpenSearchClient, index: string): Promise<string | undefined> {
  const res = await client.request<Record<string, { settings: Record<string, unknown> }>>(
    'GET',
    `/${enc(index)}/_settings?flat_settings=true`,
  );
  return rolloverAliasIn(res[index]?.settings);
}

/**
 * Older indices of the alias holding documents stamped after the write index was created, counted in
 * one search over the alias (not a call per index).
 */
async function writesAfterRollover(
  client: OpenSearchClient,
  alias: string,
  writeIndex: string,
  since: number,
  timestampField: string,
): Promise<{ index: string; count: number }[]> {
  const res = await client.request<{
    aggregations?: { by_index: { buckets: { key: string; doc_count: number }[] } };
  }>('POST', `/${enc(alias)}/_search`, {
    size: 0,
    query: {
      bool: {
        filter: [{ range: { [timestampField]: { gte: since } } }],
        must_not: [{ term: { _index: writeIndex } }],
      },
    },
    aggs: { by_index: { terms: { field: '_index', size: 1000 } } },
  });
  return (res.aggregations?.by_index.buckets ?? [])
    .map((b) => ({ index: b.key, count: b.doc_count }))
    .sort((a, b) => a.index.localeCompare(b.index));
}

function textFields(
  properties: Record<string, FieldMapping>,
  prefix = '',
): { field: string; keyword?: string }[] {
  const out: { field: string; keyword?: string }[] = [];
  for (const [name, m] of Object.entries(properties)) {
    const field = `${prefix}${name}`;
    if (m.type === 'text') {
      const sub = Object.entries(m.fields ?? {}).find(([, f]) => f.type === 'keyword');
      out.push({ field, ...(sub ? { keyword: `${field}.${sub[0]}` } : {}) });
    }
    if (m.properties) out.push(...textFields(m.properties, `${field}.`));
  }
  return out;
}

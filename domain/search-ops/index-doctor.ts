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

type Manager = Awaited<ReturnType<typeof lifecycleManager>>;

function finding(symptom: Finding['symptom'], status: Finding['status'], detail: string, fix?: string) {
  return { symptom, title: TITLES[symptom], status, detail, ...(fix ? { fix } : {}) };
}

export async function diagnose(
  client: OpenSearchClient,
  alias: string,
  opts: { field?: string; timestampField?: string } = {},
): Promise<DoctorReport> {
  const manager = await lifecycleManager(client);
  const s = await readAlias(client, alias, manager);
  const { writeIndex } = s;
  const findings = [
    await writesFinding(s, opts.timestampField ?? '@timestamp'),
    await templateFinding(s),
    ...(writeIndex ? [await policyFinding(s, writeIndex)] : []),
    ...(writeIndex || s.concrete ? [await fieldsFinding(client, writeIndex ?? alias, opts.field)] : []),
  ];
  return {
    alias,
    engine: manager.engine,
    ...(writeIndex ? { write_index: writeIndex } : {}),
    findings: findings.sort((a, b) => a.symptom - b.symptom),
    problems: findings.filter((f) => f.status === 'problem').length,
  };
}

/** The alias as read once: what every check starts from. */
type AliasState = Awaited<ReturnType<typeof readAlias>>;

async function readAlias(client: OpenSearchClient, alias: string, manager: Manager) {
  const aliases = await client.getOrUndefined<Aliases>(`/_alias/${enc(alias)}`);
  const concrete = !aliases && (await client.getOrUndefined(`/${enc(alias)}/_settings`)) !== undefined;
  const members = Object.entries(aliases ?? {})
    .map(([index, a]) => ({ index, is_write_index: a.aliases[alias]?.is_write_index }))
    .sort((a, b) => a.index.localeCompare(b.index));
  const writeIndex = writeIndexAmong(members);
  // Read once: the rollover time (symptom 2) and ism_template's creation rule (symptom 3) need it.
  const created = writeIndex ? (await indexIdentities(client, writeIndex))[0].creation_date : 0;
  // found: the alias exists; concrete: `alias` names a concrete index instead.
  return { client, alias, manager, found: !!aliases, concrete, members, writeIndex, created };
}

/** 2. Where writes go. */
async function writesFinding(
  { client, alias, found, concrete, members, writeIndex, created }: AliasState,
  timestampField: string,
): Promise<Finding> {
  if (concrete)
    return finding(
      2,
      'problem',
      `${alias} is a concrete index, not an alias: writers targeting ${alias} never roll over`,
      `reindex ${alias} into ${firstIndexName(alias)}, delete ${alias}, then bootstrap ${alias} (plat index bootstrap ${alias})`,
    );
  if (!found) return finding(2, 'problem', `no alias ${alias} exists`, `plat index bootstrap ${alias}`);
  if (!writeIndex)
    return finding(
      2,
      'problem',
      `alias ${alias} points at ${members.map((m) => m.index).join(', ')} and none is its write index (is_write_index)`,
      `POST /_aliases {"actions":[{"add":{"index":"${members[members.length - 1].index}","alias":"${alias}","is_write_index":true}}]}`,
    );
  const older = members.filter((m) => m.index !== writeIndex).map((m) => m.index);
  const strays = older.length
    ? await writesAfterRollover(client, alias, writeIndex, created, timestampField)
    : [];
  if (strays.length)
    return finding(
      2,
      'problem',
      strays
        .map((s) => `${s.count} documents in ${s.index} are newer than the rollover to ${writeIndex}`)
        .join('; ') + ': writers use a concrete index name instead of the alias',
      `point every writer at the alias ${alias}, never at ${alias}-NNNNNN`,
    );
  const explicit = members.some((m) => m.is_write_index === true);
  return finding(
    2,
    'ok',
    `writes to ${alias} go to ${writeIndex} (is_write_index: ${explicit ? 'true' : 'implied, single index'}); no document newer than the rollover in older indices`,
  );
}

/** 1. The template the next index gets, and the alias rollover will use. */
async function templateFinding({ client, alias, manager, writeIndex }: AliasState): Promise<Finding> {
  const next = writeIndex ? nextIndexName(writeIndex) : firstIndexName(alias);
  const templates = (await client.getOrUndefined<Templates>('/_index_template'))?.index_templates ?? [];
  const priority = (t: Templates['index_templates'][number]) => t.index_template.priority ?? 0;
  const winner = templates
    .filter((t) => t.index_template.index_patterns.some((p) => patternMatches(p, next)))
    .sort((a, b) => priority(b) - priority(a))[0];
  const ownTemplate = templates.find((t) => t.name === alias);
  const ism = manager.engine === 'ism';
  if (!winner)
    return finding(
      1,
      'problem',
      `no index template matches ${next}: the next index gets no settings, mappings${ism ? ' or rollover_alias setting' : ''}`,
      `plat index bootstrap ${alias} (creates the template of ${alias}-*)`,
    );
  if (ownTemplate && winner.name !== alias)
    return finding(
      1,
      'problem',
      `template ${winner.name} (priority ${priority(winner)}) wins over ${alias} (priority ${priority(ownTemplate)}) for ${next}: only the highest-priority template applies`,
      `raise the priority of ${alias} above ${priority(winner)}, or narrow the patterns of ${winner.name}`,
    );
  if (ism && rolloverAliasIn(winner.index_template.template?.settings) !== alias)
    return finding(
      1,
      'problem',
      `template ${winner.name} matches ${next} but does not set plugins.index_state_management.rollover_alias to ${alias}`,
      `add "plugins.index_state_management.rollover_alias": "${alias}" to the template settings (indices created before need it set on them)`,
    );
  if (ism && writeIndex && !(await indexRolloverAlias(client, writeIndex)))
    return finding(
      1,
      'problem',
      `${writeIndex} has no plugins.index_state_management.rollover_alias setting: it was created before the template had it, or not from it`,
      `PUT /${writeIndex}/_settings {"plugins.index_state_management.rollover_alias": "${alias}"}`,
    );
  const failed = await failedRollovers(manager, alias);
  if (failed.length)
    return finding(
      1,
      'problem',
      failed.map((f) => `rollover of ${f.index} failed: ${f.cause}`).join('; '),
      `make ${failed[0].index} the write index of ${alias} (is_write_index: true), then plat index retry ${failed[0].index}`,
    );
  return finding(
    1,
    'ok',
    `template ${winner.name} applies to the next index ${next}${ism ? ` with rollover_alias ${alias}` : ''}`,
  );
}

/** 3. The policy of the newest index. */
async function policyFinding({ alias, manager, created }: AliasState, writeIndex: string): Promise<Finding> {
  const explain = (await manager.explain(writeIndex)) as Record<string, { policy_id?: string | null }>;
  const policyId = explain[writeIndex]?.policy_id;
  if (policyId) return finding(3, 'ok', `${writeIndex} is managed by policy ${policyId}`);
  const policies = await manager.listPolicies();
  const claimers = policies.filter((p) =>
    templatesOf(p.policy).some((t) => t.index_patterns.some((pat) => patternMatches(pat, writeIndex))),
  );
  const claim = templatePolicyFor({ index: writeIndex, creation_date: created }, policies);
  if (!claimers.length)
    return finding(
      3,
      'problem',
      `no policy's ism_template matches ${writeIndex}` +
        (policies.length
          ? ` (patterns: ${policies.flatMap((p) => templatesOf(p.policy).flatMap((t) => t.index_patterns.map((pat) => `${pat} in ${p._id}`))).join(', ')})`
          : ' (there is no policy)'),
      `set the policy's ism_template index_patterns to ["${alias}-*"], and attach the existing indices: plat index attach '${alias}-*' POLICY`,
    );
  if (claim)
    return finding(
      3,
      'ok',
      `policy ${claim.policy._id} claims ${writeIndex} but has not attached it yet (the lifecycle engine attaches new indices at its next pass)`,
      `wait for the next pass, or plat index attach ${writeIndex} ${claim.policy._id}`,
    );
  return finding(
    3,
    'problem',
    `${writeIndex} was created before the ism_template of ${claimers.map((p) => p._id).join(', ')} was last updated: a template attaches only to indices created after it`,
    `plat index attach '${alias}-*' ${claimers[0]._id}`,
  );
}

/** 4. Fields that cannot be aggregated: `field`, or all text fields of `target`. */
async function fieldsFinding(client: OpenSearchClient, target: string, field?: string): Promise<Finding> {
  const mapping = await client.request<Mapping>('GET', `/${enc(target)}/_mapping`);
  const fields = textFields(Object.values(mapping)[0]?.mappings.properties ?? {});
  if (!field)
    return finding(
      4,
      'ok',
      fields.length
        ? `text fields cannot be aggregated; use: ${fields.map((f) => (f.keyword ? `${f.field} → ${f.keyword}` : `${f.field} (no keyword sub-field)`)).join(', ')}`
        : `${target} has no text field`,
    );
  const f = fields.find((x) => x.field === field);
  if (!f)
    return finding(4, 'ok', `${field} is not a text field of ${target}: it can be aggregated as mapped`);
  if (f.keyword)
    return finding(
      4,
      'problem',
      `${field} is a text field: text fields are not optimised for aggregations and sorting`,
      `aggregate on ${f.keyword} instead`,
    );
  return finding(
    4,
    'problem',
    `${field} is a text field without a keyword sub-field: an aggregation on it fails`,
    `add a keyword sub-field to ${field} in the template (new indices get it), or enable fielddata on it temporarily`,
  );
}

/** Managed indices of the rolling index whose rollover action failed, with the cause. */
async function failedRollovers(manager: Manager, alias: string): Promise<{ index: string; cause: string }[]> {
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

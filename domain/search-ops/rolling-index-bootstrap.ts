/**
 * Bootstrap of a rolling index `<name>`: the index template of `<name>-*` (created, or updated when
 * it differs), then the first index `<name>-000001` carrying the write alias `<name>` with
 * `is_write_index: true`. Idempotent: running it again changes nothing. A state that would break
 * rollover is reported, never overwritten: a concrete index named like the alias, an alias without a
 * write index, and, where ISM runs, a template of the same name without the rollover_alias setting.
 */
import { firstIndexName, indexTemplateBody, type TemplateOptions } from './index-template';
import { OpenSearchError, type OpenSearchClient } from './opensearch-client';
import { flattenSettings, rolloverAliasIn, sortKeys } from './settings-shape';

export type StepOutcome = 'created' | 'updated' | 'unchanged' | 'conflict';

export interface BootstrapReport {
  name: string;
  template: StepOutcome;
  write_alias: StepOutcome;
  /** The index the alias writes to, once there is one. */
  write_index?: string;
  /** What stopped the bootstrap, each naming the object and what to do. */
  conflicts: string[];
}

type Templates = { index_templates: { name: string; index_template: Record<string, unknown> }[] };
type Aliases = Record<string, { aliases: Record<string, { is_write_index?: boolean }> }>;

/** The ISM plugin's component name in `_cat/plugins`. */
export const ISM_PLUGIN = 'opensearch-index-management';

export async function bootstrapRollingIndex(
  client: OpenSearchClient,
  name: string,
  options: TemplateOptions = {},
  /** Whether the cluster runs ISM (default: asked with `_cat/plugins`). */
  ism?: boolean,
): Promise<BootstrapReport> {
  const withIsm = ism ?? (await client.plugins()).includes(ISM_PLUGIN);
  const report: BootstrapReport = { name, template: 'unchanged', write_alias: 'unchanged', conflicts: [] };
  const desired = indexTemplateBody(name, options, withIsm);

  const existing = (await client.getOrUndefined<Templates>(`/_index_template/${encodeURIComponent(name)}`))
    ?.index_templates[0]?.index_template;
  if (!existing) {
    await client.request('PUT', `/_index_template/${encodeURIComponent(name)}`, desired);
    report.template = 'created';
  } else if (withIsm && !rolloverAliasOf(existing)) {
    report.template = 'conflict';
    report.conflicts.push(
      `index template ${name} exists without plugins.index_state_management.rollover_alias: ` +
        `rollover of ${name}-* would fail. Add the setting (rollover_alias: "${name}") or delete the template, then run again`,
    );
  } else if (!sameTemplate(existing, desired)) {
    await client.request('PUT', `/_index_template/${encodeURIComponent(name)}`, desired);
    report.template = 'updated';
  }

  // The alias: a concrete index of that name would take every write meant for the alias.
  const concrete = await client.getOrUndefined<Record<string, { aliases?: object }>>(
    `/${encodeURIComponent(name)}?filter_path=*.settings.index.provided_name`,
  );
  const aliases = await client.getOrUndefined<Aliases>(`/_alias/${encodeURIComponent(name)}`);
  if (concrete && !aliases) {
    report.write_alias = 'conflict';
    report.conflicts.push(
      `${name} is a concrete index, not an alias: writers targeting ${name} would never roll over. ` +
        `Reindex it into ${firstIndexName(name)} (or rename it), delete it, then run again`,
    );
    return report;
  }
  if (aliases) {
    const writers = Object.entries(aliases).filter(([, a]) => a.aliases[name]?.is_write_index === true);
    if (writers.length === 1) report.write_index = writers[0][0];
    else {
      report.write_alias = 'conflict';
      report.conflicts.push(
        `alias ${name} points at ${Object.keys(aliases).join(', ')} but none is its write index: set ` +
          `is_write_index: true on the newest (POST /_aliases), then run again`,
      );
    }
    return report;
  }
  if (report.template === 'conflict') return report;
  try {
    await client.request('PUT', `/${encodeURIComponent(firstIndexName(name))}`, {
      aliases: { [name]: { is_write_index: true } },
    });
  } catch (err) {
    if (err instanceof OpenSearchError && err.type === 'resource_already_exists_exception') {
      report.write_alias = 'conflict';
      report.conflicts.push(
        `${firstIndexName(name)} exists without the alias ${name}: add it as the write index ` +
          `(POST /_aliases with is_write_index: true), then run again`,
      );
      return report;
    }
    throw err;
  }
  report.write_alias = 'created';
  report.write_index = firstIndexName(name);
  return report;
}

const rolloverAliasOf = (template: Record<string, unknown>) =>
  rolloverAliasIn((template.template as { settings?: object } | undefined)?.settings);

/** The parts plat sets, compared as OpenSearch returns them (settings nested and stringified). */
function sameTemplate(
  existing: Record<string, unknown>,
  desired: ReturnType<typeof indexTemplateBody>,
): boolean {
  const settings = flattenSettings((existing.template as { settings?: object })?.settings ?? {});
  const want = desired.template.settings;
  const value = (key: string) => settings[`index.${key}`] ?? settings[key];
  return (
    JSON.stringify(existing.index_patterns) === JSON.stringify(desired.index_patterns) &&
    Number(existing.priority) === desired.priority &&
    String(value('number_of_shards')) === String(want.number_of_shards) &&
    String(value('number_of_replicas')) === String(want.number_of_replicas) &&
    String(value('refresh_interval')) === String(want.refresh_interval) &&
    rolloverAliasOf(existing) ===
      (want as Record<string, unknown>)['plugins.index_state_management.rollover_alias'] &&
    JSON.stringify(sortKeys((existing.template as { mappings?: object })?.mappings ?? {})) ===
      JSON.stringify(sortKeys(desired.template.mappings))
  );
}

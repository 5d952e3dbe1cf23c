/**
 * The index template of a rolling index `<name>-*`: shards, replicas, refresh interval, the ISM
 * `rollover_alias` setting (the write alias) and mappings, with `term_vector` on text fields that
 * term statistics will read. It never sets `is_write_index`: only the first index's creation does.
 */
import { z } from 'zod';

export const TERM_VECTOR_VALUES = [
  'no',
  'yes',
  'with_positions',
  'with_offsets',
  'with_positions_offsets',
  'with_positions_offsets_payloads',
] as const;

/** A rolling index's name: the write alias, the prefix of its indices and of its pattern. */
export const rollingIndexName = z
  .string()
  .regex(/^[a-z0-9][a-z0-9._-]{0,200}$/, 'lower-case letters, digits, . _ - (not starting with . _ or -)');

export const templateOptionsSchema = z
  .object({
    shards: z.number().int().min(1).max(1024).default(1),
    replicas: z.number().int().min(0).max(16).default(1),
    refresh_interval: z
      .string()
      .regex(/^(-1|\d+(ms|s|m|h))$/, 'e.g. 1s, 30s or -1')
      .default('1s'),
    priority: z.number().int().min(0).default(100),
    /** Field mappings (OpenSearch `properties`); text fields may set `term_vector`. */
    properties: z.record(z.string(), z.record(z.string(), z.unknown())).default({
      '@timestamp': { type: 'date' },
      message: {
        type: 'text',
        term_vector: 'with_positions_offsets',
        fields: { keyword: { type: 'keyword', ignore_above: 256 } },
      },
    }),
    dynamic: z.boolean().default(true),
  })
  .strict();

export type TemplateOptions = z.input<typeof templateOptionsSchema>;

/**
 * The `PUT _index_template/<name>` body for the rolling index `name`. `ism`: the cluster runs the ISM
 * plugin, whose rollover reads the alias from the index setting; without ISM that setting does not
 * exist (the cluster refuses it) and plat's lifecycle engine keeps the alias itself.
 */
export function indexTemplateBody(name: string, options: TemplateOptions = {}, ism = true) {
  const o = templateOptionsSchema.parse(options);
  for (const [field, mapping] of Object.entries(o.properties)) {
    const tv = mapping.term_vector;
    if (tv !== undefined && !TERM_VECTOR_VALUES.includes(tv as never))
      throw new Error(
        `${field}.term_vector must be one of ${TERM_VECTOR_VALUES.join(', ')} (got ${String(tv)})`,
      );
  }
  return {
    index_patterns: [`${name}-*`],
    priority: o.priority,
    template: {
      settings: {
        number_of_shards: o.shards,
        number_of_replicas: o.replicas,
        refresh_interval: o.refresh_interval,
        ...(ism ? { 'plugins.index_state_management.rollover_alias': name } : {}),
      },
      mappings: { dynamic: o.dynamic, properties: o.properties },
    },
  };
}

/** `<name>-000001`: the first index, created with the write alias. */
export const firstIndexName = (name: string): string => `${name}-000001`;

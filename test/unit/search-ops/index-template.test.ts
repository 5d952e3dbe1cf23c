/** The rolling index's template: the write alias as rollover_alias, never is_write_index. */
import { firstIndexName, indexTemplateBody } from '../../../domain/search-ops/index-template';

describe('index template of a rolling index', () => {
  it('matches <name>-*, names the write alias for rollover, and sets shards, replicas and refresh', () => {
    const body = indexTemplateBody('app-logs', { shards: 3, replicas: 1, refresh_interval: '30s' });
    expect(body.index_patterns).toEqual(['app-logs-*']);
    expect(body.template.settings).toEqual({
      number_of_shards: 3,
      number_of_replicas: 1,
      refresh_interval: '30s',
      'plugins.index_state_management.rollover_alias': 'app-logs',
    });
    expect(JSON.stringify(body)).not.toContain('is_write_index');
    expect(firstIndexName('app-logs')).toBe('app-logs-000001');
  });

  it('stores term vectors for the message field by default, and refuses an unknown term_vector', () => {
    expect(indexTemplateBody('a').template.mappings.properties.message).toMatchObject({
      type: 'text',
      term_vector: 'with_positions_offsets',
    });
    expect(() =>
      indexTemplateBody('a', { properties: { body: { type: 'text', term_vector: 'sometimes' } } }),
    ).toThrow(/body.term_vector must be one of no, yes, with_positions/);
    expect(() => indexTemplateBody('a', { refresh_interval: 'often' })).toThrow();
  });
});

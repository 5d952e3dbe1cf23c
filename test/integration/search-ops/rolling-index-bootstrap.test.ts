/**
 * Bootstrapping a rolling index on a real OpenSearch node: template, first index and write alias;
 * a second run changes nothing; each broken set-up is reported instead of overwritten.
 */
import type { TemplateOptions } from '../../../domain/search-ops/index-template';
import { OpenSearchClient } from '../../../domain/search-ops/opensearch-client';
import { bootstrapRollingIndex } from '../../../domain/search-ops/rolling-index-bootstrap';
import { leaseTestOpenSearch, type LeasedOpenSearch } from '../../harness/opensearch-pool';

describe('rolling index bootstrap (real OpenSearch node)', () => {
  let node: LeasedOpenSearch;
  let client: OpenSearchClient;

  beforeAll(async () => {
    // In a private (700) directory, as a clone in a mktemp directory would be.
    node = await leaseTestOpenSearch({ privateDir: true });
    client = new OpenSearchClient({ url: node.url });
  }, 300_000);
  afterAll(async () => {
    await node?.release();
  });

  /** Bootstraps `name` with one shard and no replicas, and `options` beside. */
  const bootstrap = (name: string, options: TemplateOptions = {}, ism?: boolean) =>
    bootstrapRollingIndex(client, name, { shards: 1, replicas: 0, ...options }, ism);

  it('creates the template, the first index and the write alias; a second run changes nothing', async () => {
    const first = await bootstrap('app-logs', { refresh_interval: '1s' });
    expect(first).toEqual({
      name: 'app-logs',
      template: 'created',
      write_alias: 'created',
      write_index: 'app-logs-000001',
      conflicts: [],
    });
    const again = await bootstrap('app-logs', { refresh_interval: '1s' });
    expect(again).toEqual({ ...first, template: 'unchanged', write_alias: 'unchanged' });

    // Writes go through the alias; a rollover makes a new index that the template configured.
    await client.request('POST', '/app-logs/_doc?refresh=true', {
      '@timestamp': new Date().toISOString(),
      message: 'hello',
    });
    const rolled = await client.request<{ rolled_over: boolean; new_index: string }>(
      'POST',
      '/app-logs/_rollover',
    );
    expect(rolled).toMatchObject({ rolled_over: true, new_index: 'app-logs-000002' });
    const settings = await client.request<Record<string, { settings: { index: Record<string, unknown> } }>>(
      'GET',
      '/app-logs-000002/_settings',
    );
    // The template configured the new index (this node has no ISM, so no rollover_alias setting).
    expect(settings['app-logs-000002'].settings.index).toMatchObject({
      number_of_shards: '1',
      refresh_interval: '1s',
    });
    expect((await bootstrap('app-logs')).write_index).toBe('app-logs-000002');
  });

  it('updates a template that differs, without touching the indices', async () => {
    await bootstrap('svc-logs');
    const changed = await bootstrap('svc-logs', { refresh_interval: '30s' });
    expect(changed).toMatchObject({
      template: 'updated',
      write_alias: 'unchanged',
      write_index: 'svc-logs-000001',
    });
  });

  it('reports a concrete index named like the alias instead of writing around it', async () => {
    await client.request('PUT', '/plain-logs', {});
    const report = await bootstrap('plain-logs');
    expect(report.write_alias).toBe('conflict');
    expect(report.conflicts[0]).toMatch(
      /^plain-logs is a concrete index, not an alias: writers targeting plain-logs would never roll over/,
    );
  });

  it('reports an alias without a write index; with ISM, a template without the rollover_alias setting', async () => {
    await client.request('PUT', '/noflag-logs-000001', { aliases: { 'noflag-logs': {} } });
    await client.request('PUT', '/noflag-logs-000002', { aliases: { 'noflag-logs': {} } });
    const noWriter = await bootstrap('noflag-logs');
    expect(noWriter.write_alias).toBe('conflict');
    expect(noWriter.conflicts.join('\n')).toMatch(/none is its write index/);

    await client.request('PUT', '/_index_template/bare-logs', {
      index_patterns: ['bare-logs-*'],
      template: { settings: { number_of_shards: 1 } },
    });
    // As on a cluster with ISM (this node has none, so the setting could not be written anyway).
    const bare = await bootstrap('bare-logs', {}, true);
    expect(bare.template).toBe('conflict');
    expect(bare.conflicts[0]).toMatch(/exists without plugins.index_state_management.rollover_alias/);
    expect(await client.getOrUndefined('/bare-logs-000001')).toBeUndefined();
  });
});

/** Tokens and term statistics on a real OpenSearch node, with the two rules that save a confusing answer. */
import { OpenSearchClient } from '../../../domain/search-ops/opensearch-client';
import {
  NotAggregatableError,
  analyze,
  termVectors,
  termsAggregation,
} from '../../../domain/search-ops/term-statistics';
import { leaseTestOpenSearch, type LeasedOpenSearch } from '../../harness/opensearch-pool';

describe('term statistics (real OpenSearch node)', () => {
  let node: LeasedOpenSearch;
  let client: OpenSearchClient;

  beforeAll(async () => {
    node = await leaseTestOpenSearch();
    client = new OpenSearchClient({ url: node.url });
    await client.request('PUT', '/tv-logs', {
      settings: { number_of_shards: 1, number_of_replicas: 0 },
      mappings: {
        properties: {
          '@timestamp': { type: 'date' },
          message: {
            type: 'text',
            term_vector: 'with_positions_offsets',
            fields: { keyword: { type: 'keyword' } },
          },
          note: { type: 'text' },
        },
      },
    });
    const docs = [
      ['a1', '2026-11-01T10:00:00Z', 'worker started on plat platform', 'disk is fine'],
      ['a2', '2026-11-02T10:00:00Z', 'worker stopped', 'disk is full full full'],
      ['a3', '2026-11-20T10:00:00Z', 'worker started on plat platform', 'quiet'],
    ];
    for (const [id, ts, message, note] of docs)
      await client.request('PUT', `/tv-logs/_doc/${id}?refresh=true`, { '@timestamp': ts, message, note });
  }, 300_000);
  afterAll(async () => {
    await node?.release();
  });

  it('analyzes text into tokens with positions and offsets', async () => {
    const tokens = await analyze(client, 'tv-logs', { analyzer: 'standard', text: 'Worker started, twice' });
    expect(tokens.map((t) => [t.token, t.position, t.start_offset])).toEqual([
      ['worker', 0, 0],
      ['started', 1, 7],
      ['twice', 2, 16],
    ]);
    await expect(analyze(client, 'tv-logs', { text: 'x' })).rejects.toThrow(
      /exactly one of analyzer and field/,
    );
  });

  it('gives term vectors of a stored document, with term and field statistics', async () => {
    const out = await termVectors(client, 'tv-logs', {
      id: 'a1',
      fields: ['message'],
      term_statistics: true,
      field_statistics: true,
      positions: true,
      offsets: true,
    });
    const message = out.term_vectors.message as {
      field_statistics: { doc_count: number };
      terms: Record<string, { term_freq: number; doc_freq: number; tokens: { position: number }[] }>;
    };
    expect(out.note).toBeUndefined();
    expect(message.field_statistics.doc_count).toBe(3);
    expect(message.terms.worker).toMatchObject({ term_freq: 1, doc_freq: 3, tokens: [{ position: 0 }] });
    expect(message.terms.started.doc_freq).toBe(2);
  });

  it('says why a stored document has no term vectors, and the artificial document answers instead (rule 1)', async () => {
    // Not naming fields: only stored vectors come back, and plat says which fields have none.
    const out = await termVectors(client, 'tv-logs', { id: 'a2', term_statistics: true });
    expect(out.found).toBe(true);
    expect(Object.keys(out.term_vectors)).toEqual(['message']);
    expect(out.note).toMatch(/^note: the mapping stores no term vectors/);
    expect(out.artificial_request).toMatchObject({
      doc: { note: 'disk is full full full' },
      fields: ['note'],
    });
    const artificial = await termVectors(client, 'tv-logs', out.artificial_request!);
    const terms = (artificial.term_vectors.note as { terms: Record<string, { term_freq: number }> }).terms;
    expect(terms.full.term_freq).toBe(3);
    // Naming the field computes its vectors from the source: nothing to explain.
    const named = await termVectors(client, 'tv-logs', { id: 'a2', fields: ['note'] });
    expect(named.note).toBeUndefined();
    expect(Object.keys(named.term_vectors)).toEqual(['note']);
    const unknown = await termVectors(client, 'tv-logs', { id: 'no-such-id', fields: ['message'] });
    expect(unknown).toMatchObject({ found: false, note: expect.stringMatching(/engine's own id/) });
  });

  it('aggregates a text field through its keyword sub-field, or names the fix (rule 2); doc_count is document frequency', async () => {
    const all = await termsAggregation(client, 'tv-logs', { field: 'message' });
    expect(all.field).toBe('message.keyword');
    expect(all.note).toMatch(/text field: aggregated its keyword sub-field message.keyword/);
    expect(all.buckets).toEqual([
      { key: 'worker started on plat platform', doc_count: 2 },
      { key: 'worker stopped', doc_count: 1 },
    ]);
    const november = await termsAggregation(client, 'tv-logs', {
      field: 'message',
      from: '2026-11-01T00:00:00Z',
      to: '2026-11-10T00:00:00Z',
    });
    expect(november.buckets.map((b) => b.doc_count)).toEqual([1, 1]);
    await expect(termsAggregation(client, 'tv-logs', { field: 'note' })).rejects.toThrow(
      NotAggregatableError,
    );
    await expect(termsAggregation(client, 'tv-logs', { field: 'note' })).rejects.toThrow(
      /no keyword sub-field/,
    );
  });

  it('works on a rolled-over write alias: analyze on its write index, a stored document where it lives', async () => {
    const mapping = { properties: { message: { type: 'text', term_vector: 'with_positions_offsets' } } };
    const settings = { number_of_shards: 1, number_of_replicas: 0 };
    await client.request('PUT', '/roll-logs-000001', {
      settings,
      mappings: mapping,
      aliases: { 'roll-logs': { is_write_index: false } },
    });
    await client.request('PUT', '/roll-logs-000001/_doc/old?refresh=true', { message: 'older worker line' });
    await client.request('PUT', '/roll-logs-000002', {
      settings,
      mappings: mapping,
      aliases: { 'roll-logs': { is_write_index: true } },
    });
    // The cluster itself refuses: the alias names two indices.
    await expect(
      client.request('POST', '/roll-logs/_analyze', { field: 'message', text: 'x' }),
    ).rejects.toThrow(/more than one ind/i);
    const tokens = await analyze(client, 'roll-logs', { field: 'message', text: 'Worker started' });
    expect(tokens.map((t) => t.token)).toEqual(['worker', 'started']);
    const stored = await termVectors(client, 'roll-logs', { id: 'old', fields: ['message'] });
    expect(stored.found).toBe(true);
    expect(Object.keys(stored.term_vectors)).toEqual(['message']);
    const artificial = await termVectors(client, 'roll-logs', { doc: { message: 'new line' } });
    expect(artificial.found).toBe(true);
  });
});

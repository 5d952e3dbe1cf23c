/**
 * A managed domain: every request SigV4-signed by the official client, checked by a wire FAKE of the
 * Amazon OpenSearch Service front end (test/fakes/sigv4-domain-fake.ts: the AWS SDK's own signer
 * recomputes each signature from known test credentials) in front of the ISM fake and a real node.
 * On it, plat's policies may use the managed-domain actions, and they go to the domain's ISM.
 */
import { tieredPolicy } from '../../../domain/search-ops/builtin-policies';
import { configuredOpenSearch } from '../../../domain/search-ops/cluster-connection';
import { applyPolicy } from '../../../domain/search-ops/lifecycle/apply-policy';
import { lifecycleManager } from '../../../domain/search-ops/lifecycle/lifecycle-manager-for';
import { OpenSearchClient } from '../../../domain/search-ops/opensearch-client';
import { bootstrapRollingIndex } from '../../../domain/search-ops/rolling-index-bootstrap';
import { analyze, termsAggregation } from '../../../domain/search-ops/term-statistics';
import { createLifecycleActivities } from '../../../activities/search-ops/lifecycle-activities';
import {
  startSigV4DomainFake,
  TEST_AWS_CREDENTIALS,
  type SigV4DomainFake,
} from '../../fakes/sigv4-domain-fake';
import { startFakeIsm, type FakeIsm } from '../../harness/fake-ism';
import { apiCaller } from '../../harness/api-caller';
import { leaseTestOpenSearch, type LeasedOpenSearch } from '../../harness/opensearch-pool';
import { startTestGateway } from '../../harness/platform-gateway';
import { devServerEnv } from '../../harness/temporal-envs';

const REGION = 'eu-west-1';

describe('a managed domain through SigV4-signed requests (wire fakes of the AWS front end and ISM, real node)', () => {
  let node: LeasedOpenSearch;
  let ism: FakeIsm;
  let domain: SigV4DomainFake;
  let serverless: SigV4DomainFake;
  const savedEnv = { ...process.env };

  beforeAll(async () => {
    node = await leaseTestOpenSearch();
    ism = await startFakeIsm(node.url);
    domain = await startSigV4DomainFake({ upstream: ism.url, region: REGION, service: 'es' });
    serverless = await startSigV4DomainFake({ upstream: node.url, region: REGION, service: 'aoss' });
    // The AWS SDK's default chain reads these first, as on a host configured with keys.
    delete process.env.AWS_PROFILE;
    process.env.AWS_ACCESS_KEY_ID = TEST_AWS_CREDENTIALS.accessKeyId;
    process.env.AWS_SECRET_ACCESS_KEY = TEST_AWS_CREDENTIALS.secretAccessKey;
  }, 300_000);
  afterAll(async () => {
    process.env = savedEnv;
    await domain?.stop();
    await serverless?.stop();
    await ism?.stop();
    await node?.release();
  });

  it('signs every call with the credential chain, and the domain’s ISM gets the managed-domain actions', async () => {
    const client = configuredOpenSearch({ OPENSEARCH_URL: domain.url, OPENSEARCH_AWS_REGION: REGION })!;
    expect(client.authentication).toBe('aws-sigv4');
    const manager = await lifecycleManager(client);
    expect(manager).toMatchObject({ engine: 'ism', managedDomain: true });

    // warm_migration, cold_migration and cold_delete: refused on a self-managed cluster, taken here.
    const name = 'md-logs';
    expect((await applyPolicy(manager, 'md-tiered', tieredPolicy(name))).result).toBe('created');
    const stored = await manager.getPolicy('md-tiered');
    expect(JSON.stringify(stored?.policy)).toMatch(/warm_migration.*cold_migration.*cold_delete/s);
    // The ISM fake's node refuses ISM's rollover_alias setting: bootstrapped as for plat's engine.
    await bootstrapRollingIndex(client, name, { shards: 1, replicas: 0 }, false);
    expect((await manager.addPolicy(`${name}-*`, 'md-tiered')).updated_indices).toBe(1);
    expect(ism.calls).toEqual(
      expect.arrayContaining(['PUT /_plugins/_ism/policies/md-tiered', `POST /_plugins/_ism/add/${name}-*`]),
    );

    // A bulk body (ndjson), a search body and a query string with characters SigV4 encodes.
    const at = new Date().toISOString();
    const action = JSON.stringify({ index: { _index: name } });
    await client.bulk(
      [
        action,
        JSON.stringify({ '@timestamp': at, message: 'signed request one', level: 'info' }),
        action,
        JSON.stringify({ '@timestamp': at, message: 'signed two', level: 'warn' }),
        '',
      ].join('\n'),
      'refresh=true',
    );
    expect(
      await client.request('POST', `/${name}/_count`, { query: { match: { message: 'signed' } } }),
    ).toMatchObject({
      count: 2,
    });
    const tokens = await analyze(client, name, { field: 'message', text: 'Signed Requests, Ünïcode' });
    expect(tokens.map((t) => t.token)).toEqual(['signed', 'requests', 'ünïcode']);
    const terms = await termsAggregation(client, name, { field: 'level', size: 5 });
    expect(terms.buckets.map((b) => b.key).sort()).toEqual(['info', 'warn']);
    await client.request(
      'GET',
      `/_cat/indices/${encodeURIComponent(`${name}-*`)}?format=json&h=index,docs.count`,
    );

    // ISM runs the policies: plat's own engine stands aside.
    expect(
      await createLifecycleActivities({ search: client }).runLifecyclePass({ now: Date.now() }),
    ).toMatchObject({
      engine: 'ism',
    });
    expect(domain.calls.length).toBeGreaterThan(8);
    expect(domain.calls.filter((c) => !c.accepted)).toEqual([]);
  });

  it('signs with a session token from explicit credentials', async () => {
    const client = new OpenSearchClient({
      url: domain.url,
      aws: {
        region: REGION,
        service: 'es',
        credentials: async () => ({ ...TEST_AWS_CREDENTIALS, sessionToken: 'FwoGZXIvYXdzEXAMPLETOKEN//+=' }),
      },
    });
    const before = domain.calls.length;
    expect(await client.request('GET', '/_cluster/health')).toMatchObject({ status: expect.any(String) });
    expect(domain.calls.slice(before)).toEqual([{ method: 'GET', path: '/_cluster/health', accepted: true }]);
  });

  it('is refused, in the service’s words, with the wrong secret, the wrong region or no signature', async () => {
    const wrongSecret = new OpenSearchClient({
      url: domain.url,
      aws: {
        region: REGION,
        service: 'es',
        credentials: async () => ({ ...TEST_AWS_CREDENTIALS, secretAccessKey: 'not-the-secret' }),
      },
    });
    await expect(wrongSecret.request('GET', '/_cat/indices?format=json')).rejects.toMatchObject({
      status: 403,
      reason: expect.stringMatching(/^The request signature we calculated does not match/),
    });
    const wrongRegion = configuredOpenSearch({
      OPENSEARCH_URL: domain.url,
      OPENSEARCH_AWS_REGION: 'us-east-1',
    })!;
    await expect(wrongRegion.request('GET', '/')).rejects.toMatchObject({
      status: 403,
      reason: expect.stringMatching(/scoped to a valid region and service: 'eu-west-1\/es'/),
    });
    const unsigned = configuredOpenSearch({ OPENSEARCH_URL: domain.url })!;
    await expect(unsigned.request('GET', '/')).rejects.toMatchObject({
      status: 403,
      reason: expect.stringMatching(/anonymous is not authorized/),
    });
  });

  it('signs for a serverless collection (aoss), whose retention is not plat’s to run', async () => {
    const client = configuredOpenSearch({
      OPENSEARCH_URL: serverless.url,
      OPENSEARCH_AWS_REGION: REGION,
      OPENSEARCH_AWS_SERVICE: 'aoss',
    })!;
    await client.request('PUT', '/aoss-docs', { settings: { number_of_shards: 1, number_of_replicas: 0 } });
    await client.bulk('{"index":{"_index":"aoss-docs"}}\n{"message":"serverless"}\n', 'refresh=true');
    expect(
      await client.request('POST', '/_count', { query: { match: { message: 'serverless' } } }),
    ).toMatchObject({ count: 1 });
    await expect(lifecycleManager(client)).rejects.toThrow(
      /has no index lifecycle to manage: it keeps data by its data lifecycle policies/,
    );
    expect(
      await createLifecycleActivities({ search: client }).runLifecyclePass({ now: Date.now() }),
    ).toMatchObject({
      engine: 'none',
      skipped: expect.stringMatching(/OpenSearch Serverless/),
    });
    expect(serverless.calls.filter((c) => !c.accepted)).toEqual([]);
  });

  it('through the gateway: signed from the settings, and a refused signature is a 503 naming what to check', async () => {
    const env = await devServerEnv();
    const start = (region: string) =>
      startTestGateway({
        client: env.client,
        taskQueue: 'managed-domain-test',
        env: { OPENSEARCH_URL: domain.url, OPENSEARCH_AWS_REGION: region },
      });
    const signed = await start(REGION);
    const wrong = await start('us-east-1');
    try {
      for (const gateway of [signed, wrong]) {
        const call = apiCaller(() => gateway.base);
        const token = (
          await call('POST', '/auth/signup', { username: 'operator', password: 'managed domain' })
        ).body.id_token as string;
        const cat = await call('GET', '/v1/search/cat/indices/md-logs-*', undefined, token);
        if (gateway === signed)
          expect(cat).toMatchObject({ status: 200, body: [{ index: 'md-logs-000001' }] });
        else
          expect(cat).toMatchObject({
            status: 503,
            body: {
              error: {
                code: 'search_unauthorized',
                message: expect.stringMatching(/refused plat's credentials \(403\).*OPENSEARCH_AWS_REGION/),
              },
            },
          });
      }
    } finally {
      await signed.stop();
      await wrong.stop();
      await env.teardown();
    }
  });
});

/**
 * The memory service against its own generated OpenAPI document, property-based (schemathesis, every
 * check, coverage + fuzzing + stateful phases following the document's links from an added memory
 * to get, history, update and delete): as served on loopback without keys, and with API keys.
 */
import { runSchemathesis } from '../harness/schemathesis';
import { startTestMemoryService, type TestMemoryService } from '../harness/memory-service';

describe('memory API contract (schemathesis)', () => {
  let open: TestMemoryService;
  let keyed: TestMemoryService;

  beforeAll(async () => {
    open = await startTestMemoryService();
    keyed = await startTestMemoryService({ apiKeys: ['contract-test-key'] });
  });
  afterAll(async () => {
    await open?.stop();
    await keyed?.stop();
  });

  it('keeps every promise of its document with API keys, refusing calls without one', async () => {
    // The full run (every phase), on the service configured as deployed: the key is checked on every
    // operation by the coverage phase and schemathesis's auth checks.
    const run = await runSchemathesis(`${keyed.url}/openapi.json`, {
      headers: { Authorization: 'Bearer contract-test-key' },
      maxExamples: 25,
    });
    if (run.exitCode !== 0) throw new Error(run.report);
    expect(run.summary).toMatch(/^(\d+) generated, \1 passed/);
  }, 300_000);

  it('keeps every promise of its document when no key is needed', async () => {
    // The same document and code as above: what this run adds is that loopback without keys serves
    // every operation, which generated cases and link-following sequences reach; the coverage phase's
    // 600 boundary cases would repeat the keyed run's (about 15 s of CPU on 2 cores).
    const run = await runSchemathesis(`${open.url}/openapi.json`, {
      phases: ['fuzzing', 'stateful'],
      maxExamples: 10,
    });
    if (run.exitCode !== 0) throw new Error(run.report);
    expect(run.summary).toMatch(/^(\d+) generated, \1 passed/);
  }, 300_000);
});

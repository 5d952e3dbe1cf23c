/**
 * A source that stops sending in the middle of the copy fails that copy with a clear reason once a
 * reader waited its idle bound, instead of holding the worker until the activity's timeout; a copy
 * held back by the row pacer (the reader pauses itself) is not a stall (docs/security.md#sources).
 */
import { SourceMisbehavedError } from '../../../domain/sources/bounded-source';
import { sourceConnector } from '../../../domain/sources/mysql-connection';
import { harness } from '../../harness/harness-state';
import { startStallingProxy } from '../../harness/stalling-proxy';
import { ingestFresh, sakilaSnapshot } from '../../harness/sakila';

describe('a source that stalls mid-copy', () => {
  it('fails the copy after the idle bound, naming the table and the wait', async () => {
    const snapshot = await sakilaSnapshot();
    const h = harness().mariadb;
    // Past the handshake and the snapshot's statements, in the middle of the first big table's rows.
    const proxy = await startStallingProxy({ host: h.host, port: h.port }, 200_000);
    try {
      const source = sourceConnector(
        { host: '127.0.0.1', port: proxy.port, database: 'sakila', options: {} },
        h.user,
        h.password,
      );
      const copied = ingestFresh({
        projectId: 'proj-20261128-stall001',
        source,
        snapshot,
        parallel: 1,
        idleMs: 1_000,
      });
      const err = await copied.catch((e: unknown) => e);
      expect(err).toBeInstanceOf(SourceMisbehavedError);
      expect((err as Error).message).toMatch(/^the source sent no row of \w+ for 1 s while the copy waited$/);
      expect(proxy.stalled()).toBeGreaterThan(0);
    } finally {
      await proxy.close();
    }
  });

  it('does not count a reader the row pacer holds back as stalled', async () => {
    const paced = await ingestFresh({
      projectId: 'proj-20261128-stall002',
      snapshot: await sakilaSnapshot(),
      // 47,268 rows at 15,000 a second: readers held for seconds in all, in waits longer than the bound.
      maxRowsPerSecond: 15_000,
      idleMs: 500,
    });
    expect(paced.rows_copied).toBe(47_268);
  });
});

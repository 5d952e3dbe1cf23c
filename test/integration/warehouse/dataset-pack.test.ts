/**
 * The offline analyst on real public databases it was not written for (the pack beside the
 * repository, test/fixtures/dataset-pack.ts): each loaded as its authors publish it, explored, given
 * its PRD, built through every layer and held against truths written from its own documentation:
 * event dates covered day for day, revenue to the cent, no key or level added up, roles, breakdowns.
 * `npm run bench:analyst` prints the same checks as a score (docs/offline-analyst.md#how-it-is-measured).
 */
import mysql from 'mysql2/promise';
import { sourceConnector } from '../../../domain/sources/mysql-connection';
import { mariadbProgram } from '../../../scripts/lib/tool-paths';
import { loadPackDataset, PACK } from '../../fixtures/dataset-pack';
import { harness } from '../../harness/harness-state';
import { newTestDataDir } from '../../harness/platform-gateway';
import { buildProject, profileProblems, reconcile } from './zoo-project-checks';

describe('analysis projects on real public databases', () => {
  it.each(PACK.map((p) => [p.folder, p] as const))(
    '%s: dated by its events, revenue to the cent, no key or level added up',
    async (_, dataset) => {
      const h = harness().mariadb;
      await loadPackDataset(mariadbProgram('mariadb'), h.socket, dataset.folder);
      const connection = await mysql.createConnection({
        host: h.host,
        port: h.port,
        user: h.user,
        password: h.password,
        database: dataset.database,
        dateStrings: true,
      });
      try {
        await connection.query("SET time_zone = '+00:00'");
        const built = await buildProject(
          connection,
          sourceConnector(
            { host: h.host, port: h.port, database: dataset.database, options: {} },
            h.user,
            h.password,
          ),
          dataset.database,
          '',
          newTestDataDir(),
          `proj-20261128-${dataset.folder
            .replace(/[^a-z0-9]/gi, '')
            .toLowerCase()
            .slice(0, 8)}`,
        );
        const problems = [
          ...(await reconcile(built, dataset.truth, connection)),
          ...(await profileProblems(built)),
        ];
        expect(problems).toEqual([]);
      } finally {
        await connection.end();
      }
    },
  );
});

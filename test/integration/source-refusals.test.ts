/**
 * Which refusals of a MySQL source are final (a stage fails at once) and which are worth a retry,
 * against the harness's MariaDB.
 */
import { sourceConnector, SourceConnectionError } from '../../domain/sources/mysql-connection';
import { parseJdbcUrl } from '../../shared/mysql-source';
import { harness } from '../harness/harness-state';

async function refusal(database: string, user: string, password: string): Promise<SourceConnectionError> {
  const { host, port } = harness().mariadb;
  const target = parseJdbcUrl(`jdbc:mysql://${host}:${port}/${database}`);
  const err = await sourceConnector(target, user, password, 5_000)
    .connect()
    .then(
      (db) => db.end(),
      (e) => e,
    );
  expect(err).toBeInstanceOf(SourceConnectionError);
  return err as SourceConnectionError;
}

describe('source refusals', () => {
  it('does not retry a wrong password, an account that does not exist, or a missing database', async () => {
    const { user, password } = harness().mariadb;
    const wrongPassword = await refusal('sakila', user, 'not-the-password');
    expect([wrongPassword.code, wrongPassword.retryable]).toEqual(['ER_ACCESS_DENIED_ERROR', false]);
    // MariaDB answers an unknown account with its own code, and it is as final.
    const noAccount = await refusal('sakila', `nobody_${process.pid}`, 'whatever');
    expect(noAccount.retryable).toBe(false);
    expect(noAccount.message).toMatch(/Access denied/);
    const noDatabase = await refusal(`no_such_db_${process.pid}`, user, password);
    expect([noDatabase.code, noDatabase.retryable]).toEqual(['ER_BAD_DB_ERROR', false]);
  });

  it('retries a server that does not answer', async () => {
    const { host } = harness().mariadb;
    const refused = await sourceConnector(parseJdbcUrl(`jdbc:mysql://${host}:1/sakila`), 'u', 'p', 2_000)
      .connect()
      .catch((e: SourceConnectionError) => e);
    expect(refused).toMatchObject({ code: 'ECONNREFUSED', retryable: true });
  });
});

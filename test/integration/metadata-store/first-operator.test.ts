/**
 * The first account of a deployment is its one operator, however sign-ups race: on one SQLite file,
 * and on one PostgreSQL through two pools as two gateways would; and a store whose accounts predate
 * roles makes its earliest account the operator.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import Database from 'libsql';
import { UserStore, type User } from '../../../gateway/auth/user-store';
import { metadataDbPath, openMetadataDb } from '../../../domain/metadata-store/metadata-db';
import { newTestDataDir } from '../../harness/platform-gateway';
import { BACKENDS, storeOpener } from './backends';

describe.each(BACKENDS)('the first account on $name', (backend) => {
  const opener = storeOpener(backend);
  afterAll(() => opener.closeAll());

  it('is the one operator when twelve sign-ups race on two gateways', async () => {
    const location = await backend.fresh('first-operator');
    const gateways = [
      new UserStore(await opener.open(location)),
      new UserStore(await opener.open(backend.other(location))),
    ];
    const made = await Promise.all(
      Array.from({ length: 12 }, (_, i) => gateways[i % 2].create(`racer-${i}`, 'racing password')),
    );
    const operators = (users: User[]) => users.filter((u) => u.roles.includes('operator'));
    expect(operators(made)).toHaveLength(1);
    // What each answered is what the store holds, and the next sign-up on either is a tenant.
    const stored = await Promise.all(made.map((u) => gateways[1].find(u.username)));
    expect(operators(stored as User[]).map((u) => u.username)).toEqual(
      operators(made).map((u) => u.username),
    );
    expect((await gateways[0].create('late', 'late password')).roles).toEqual([]);
    expect((await gateways[1].create('later', 'later password')).roles).toEqual([]);
    await expect(gateways[0].create('racer-0', 'another password')).rejects.toThrow(/taken/);
  });

  it('stays taken when its operator is revoked: a later sign-up is still a tenant', async () => {
    const location = await backend.fresh('first-operator-revoked');
    const users = new UserStore(await opener.open(location));
    expect((await users.create('first', 'first password')).roles).toEqual(['operator']);
    await users.create('second', 'second password');
    expect((await users.grant('second', 'operator'))?.roles).toEqual(['operator']);
    expect((await users.revoke('first', 'operator'))?.roles).toEqual([]);
    await expect(users.revoke('second', 'operator')).rejects.toThrow(/only operator/);
    // Another gateway, which has not seen the slot taken, asks the store.
    const other = new UserStore(await opener.open(backend.other(location)));
    expect((await other.create('third', 'third password')).roles).toEqual([]);
  });

  it('keeps an operator when two gateways revoke the only two operators at once', async () => {
    const location = await backend.fresh('operator-revoke-race');
    const gateways = [
      new UserStore(await opener.open(location)),
      new UserStore(await opener.open(backend.other(location))),
    ];
    await gateways[0].create('ada', 'ada password');
    await gateways[0].create('bob', 'bob password');
    for (let round = 0; round < 20; round++) {
      await gateways[0].grant('ada', 'operator');
      await gateways[0].grant('bob', 'operator');
      // Each revokes the other's account at the same moment: one may win, never both.
      const outcomes = await Promise.allSettled([
        gateways[0].revoke('bob', 'operator'),
        gateways[1].revoke('ada', 'operator'),
      ]);
      const left = await Promise.all(['ada', 'bob'].map((u) => gateways[0].find(u)));
      expect({ round, operators: left.filter((u) => u?.roles.includes('operator')).length }).toEqual({
        round,
        operators: 1,
      });
      expect(outcomes.filter((o) => o.status === 'rejected')).toHaveLength(1);
    }
  });
});

test('a store with accounts made before roles makes its earliest account the operator', async () => {
  const file = metadataDbPath(newTestDataDir());
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const old = new Database(file);
  old.exec(`CREATE TABLE users (user_id TEXT PRIMARY KEY, username TEXT NOT NULL UNIQUE,
            password_hash TEXT NOT NULL, created_at TEXT NOT NULL)`);
  old.exec(`INSERT INTO users VALUES
              ('user-2', 'later', 'scrypt$x', '2026-02-01T00:00:00.000Z'),
              ('user-1', 'earliest', 'scrypt$x', '2026-01-01T00:00:00.000Z')`);
  old.close();
  const db = await openMetadataDb(file);
  try {
    const users = new UserStore(db);
    expect((await users.find('earliest'))?.roles).toEqual(['operator']);
    expect((await users.find('later'))?.roles).toEqual([]);
    expect((await users.create('newcomer', 'newcomer password')).roles).toEqual([]);
  } finally {
    await db.close();
  }
});

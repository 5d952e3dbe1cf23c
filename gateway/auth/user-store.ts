/** User-password accounts of the built-in identity provider, in the metadata store. */
import { randomUUID } from 'node:crypto';
import type { MetadataDb } from '../../domain/metadata-store/metadata-db';
import { hashPassword, verifyPassword } from './password-hash';

export interface User {
  user_id: string;
  username: string;
}

export class UserExists extends Error {}

export class UserStore {
  constructor(private readonly metadata: MetadataDb) {}

  async create(username: string, password: string): Promise<User> {
    const user = { user_id: `user-${randomUUID()}`, username };
    const hash = await hashPassword(password);
    // Two gateways signing up one name at once: the unique index decides, the loser sees no row.
    const inserted = await this.metadata.db
      .insertInto('users')
      .values({ ...user, password_hash: hash, created_at: new Date().toISOString() })
      .onConflict((oc) => oc.column('username').doNothing())
      .returning('user_id')
      .executeTakeFirst();
    if (!inserted) throw new UserExists(`username ${username} is taken`);
    return user;
  }

  /** The user when the password matches; undefined otherwise (same answer for unknown users). */
  async authenticate(username: string, password: string): Promise<User | undefined> {
    const row = await this.metadata.db
      .selectFrom('users')
      .select(['user_id', 'username', 'password_hash'])
      .where('username', '=', username)
      .executeTakeFirst();
    // Hash anyway for unknown users so response time does not reveal which usernames exist.
    const ok = await verifyPassword(
      password,
      row?.password_hash ??
        'scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=',
    );
    return row && ok ? { user_id: row.user_id, username: row.username } : undefined;
  }
}

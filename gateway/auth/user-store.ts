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
  constructor(private readonly db: MetadataDb) {}

  async create(username: string, password: string): Promise<User> {
    const user = { user_id: `user-${randomUUID()}`, username };
    const hash = await hashPassword(password);
    try {
      this.db
        .prepare('INSERT INTO users (user_id, username, password_hash, created_at) VALUES (?, ?, ?, ?)')
        .run(user.user_id, username, hash, new Date().toISOString());
    } catch (err) {
      if (/UNIQUE/i.test(String((err as Error).message)))
        throw new UserExists(`username ${username} is taken`);
      throw err;
    }
    return user;
  }

  /** The user when the password matches; undefined otherwise (same answer for unknown users). */
  async authenticate(username: string, password: string): Promise<User | undefined> {
    const row = this.db
      .prepare('SELECT user_id, username, password_hash FROM users WHERE username = ?')
      .get(username) as (User & { password_hash: string }) | undefined;
    // Hash anyway for unknown users so response time does not reveal which usernames exist.
    const ok = await verifyPassword(
      password,
      row?.password_hash ??
        'scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=',
    );
    return row && ok ? { user_id: row.user_id, username: row.username } : undefined;
  }
}

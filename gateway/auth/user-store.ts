/** User-password accounts of the built-in identity provider, in the metadata store, with their role. */
import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { MetadataDb } from '../../domain/metadata-store/metadata-db';
import type { MetadataTables } from '../../domain/metadata-store/metadata-tables';
import { hashPassword, verifyPassword } from './password-hash';
import type { Role } from './roles';

export interface User {
  user_id: string;
  username: string;
  roles: Role[];
}

export class UserExists extends Error {}

/** Revoking the operator role from the only account that has it would leave no one to grant it. */
export class LastOperator extends Error {}

const rolesOf = (role: string): Role[] => (role === 'operator' ? ['operator'] : []);

export class UserStore {
  /** Set once this process knows the first account exists: later sign-ups skip trying to be it. */
  private firstAccountTaken = false;

  constructor(private readonly metadata: MetadataDb) {}

  /**
   * Creates an account: the deployment's first is an operator, every later one a tenant. The unique
   * `first_account` slot decides, so two sign-ups racing on two gateways of one database get one
   * operator between them.
   */
  async create(username: string, password: string): Promise<User> {
    const user = { user_id: `user-${randomUUID()}`, username };
    const row = {
      ...user,
      password_hash: await hashPassword(password),
      created_at: new Date().toISOString(),
    };
    if (!this.firstAccountTaken) {
      // Any conflict (the slot or the name) inserts nothing; the name is then checked below.
      const first = await this.metadata.db
        .insertInto('users')
        .values({ ...row, role: 'operator', first_account: 1 })
        .onConflict((oc) => oc.doNothing())
        .returning('user_id')
        .executeTakeFirst();
      if (first) return { ...user, roles: ['operator'] };
      this.firstAccountTaken = true;
    }
    // Two gateways signing up one name at once: the unique index decides, the loser sees no row.
    const inserted = await this.metadata.db
      .insertInto('users')
      .values({ ...row, role: 'tenant', first_account: null })
      .onConflict((oc) => oc.column('username').doNothing())
      .returning('user_id')
      .executeTakeFirst();
    if (!inserted) throw new UserExists(`username ${username} is taken`);
    return { ...user, roles: [] };
  }

  /** The user when the password matches; undefined otherwise (same answer for unknown users). */
  async authenticate(username: string, password: string): Promise<User | undefined> {
    const row = await this.metadata.db
      .selectFrom('users')
      .select(['user_id', 'username', 'password_hash', 'role'])
      .where('username', '=', username)
      .executeTakeFirst();
    // Hash anyway for unknown users so response time does not reveal which usernames exist.
    const ok = await verifyPassword(
      password,
      row?.password_hash ??
        'scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=',
    );
    return row && ok ? { user_id: row.user_id, username: row.username, roles: rolesOf(row.role) } : undefined;
  }

  /** An account by name, or undefined. */
  async find(username: string): Promise<User | undefined> {
    const row = await this.metadata.db
      .selectFrom('users')
      .select(['user_id', 'username', 'role'])
      .where('username', '=', username)
      .executeTakeFirst();
    return row && { user_id: row.user_id, username: row.username, roles: rolesOf(row.role) };
  }

  /** Makes an account an operator; undefined when there is no such account. */
  async grant(username: string, role: Role): Promise<User | undefined> {
    await this.metadata.db.updateTable('users').set({ role }).where('username', '=', username).execute();
    return this.find(username);
  }

  /**
   * Makes an operator a tenant again; undefined when there is no such account. Throws
   * {@link LastOperator} rather than revoke the only operator account.
   */
  async revoke(username: string, role: Role): Promise<User | undefined> {
    await this.metadata.db.transaction().execute(async (tx) => {
      // Revokes take turns: in one statement the check that another operator remains and the change
      // cannot be split, but on PostgreSQL two gateways revoking each other's operator at once would
      // each still see the other in its snapshot, and leave none. (SQLite has one writer at a time.)
      if (this.metadata.dialect === 'postgres')
        await sql`SELECT pg_advisory_xact_lock(hashtext(${ROLE_CHANGES_LOCK}))`.execute(tx);
      await this.revokeUnlessLast(tx, username, role);
    });
    const user = await this.find(username);
    if (user?.roles.includes(role))
      throw new LastOperator(`${username} is the only ${role}: grant the role to another account first`);
    return user;
  }

  private async revokeUnlessLast(db: Kysely<MetadataTables>, username: string, role: Role): Promise<void> {
    await db
      .updateTable('users')
      .set({ role: 'tenant' })
      .where('username', '=', username)
      .where('role', '=', role)
      .where(({ exists, selectFrom }) =>
        exists(
          selectFrom('users as other')
            .select('other.user_id')
            .where('other.role', '=', role)
            .where('other.username', '<>', username),
        ),
      )
      .execute();
  }
}

/** The advisory lock revokes take on PostgreSQL, so two never decide on the same snapshot. */
const ROLE_CHANGES_LOCK = 'plat-user-role-changes';

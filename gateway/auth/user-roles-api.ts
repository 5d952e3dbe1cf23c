/**
 * `PUT|DELETE /v1/users/{username}/roles/{role}`: an operator grants or revokes a built-in account's
 * role (`plat users grant|revoke`). Tokens already issued keep the roles they carry until they
 * expire; the account's next sign-in carries the change. Users of an external issuer get their role
 * from its groups (PLAT_OIDC_OPERATOR_GROUP), not from here.
 */
import { z } from 'zod';
import { apiRoute, type ApiRoute } from '../api/api-route';
import { HttpError } from '../http-errors';
import { ROLES } from './roles';
import { LastOperator, type User, type UserStore } from './user-store';
import { usernameSchema } from './username';

const params = z.object({
  username: usernameSchema,
  role: z.enum(ROLES, { error: `one of ${ROLES.join(', ')}` }),
});

const accountSchema = z.object({
  username: z.string(),
  roles: z.array(z.enum(ROLES)).describe('none: a tenant'),
});

/** What both operations share: the account's role by path, operator only, answering the account. */
const ACCOUNT_ROLE = { path: '/v1/users/{username}/roles/{role}', role: 'operator', params } as const;
const ACCOUNT_ANSWERS = {
  200: { description: 'the account and its roles', schema: accountSchema },
  404: { description: 'no such account' },
};

const account = (user: User | undefined, username: string) => {
  if (!user) throw new HttpError(404, 'not_found', `no account ${username}`);
  return { username: user.username, roles: user.roles };
};

export function userRolesApi(users: UserStore): ApiRoute[] {
  return [
    apiRoute({
      operationId: 'grantRole',
      method: 'put',
      ...ACCOUNT_ROLE,
      summary: "Grant an account a role (operator only); its next sign-in's token carries it",
      responses: ACCOUNT_ANSWERS,
      handle: async ({ params: p }) => account(await users.grant(p.username, p.role), p.username),
    }),
    apiRoute({
      operationId: 'revokeRole',
      method: 'delete',
      ...ACCOUNT_ROLE,
      summary: "Revoke an account's role (operator only); tokens already issued keep it until they expire",
      responses: { ...ACCOUNT_ANSWERS, 409: { description: 'the account is the only operator' } },
      handle: async ({ params: p }) => {
        try {
          return account(await users.revoke(p.username, p.role), p.username);
        } catch (err) {
          if (err instanceof LastOperator) throw new HttpError(409, 'last_operator', err.message);
          throw err;
        }
      },
    }),
  ];
}

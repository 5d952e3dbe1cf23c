/**
 * `plat users grant|revoke USERNAME`: an operator gives an account the operator role or takes it
 * back, through `PUT|DELETE /v1/users/{username}/roles/operator`. The account's next sign-in
 * carries the change; tokens it already holds keep their roles until they expire.
 */
import { parseArgs } from 'node:util';
import { ApiError, gatewayUrl, loadToken, ok, platformClient } from './api-client';

export const USERS_USAGE = `  users grant USERNAME                    make an account an operator (operators only; it signs in again)
  users revoke USERNAME                   make an operator a tenant again`;

export async function usersCommand(argv: string[]): Promise<{ data: unknown; text: string }> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { url: { type: 'string' }, json: { type: 'boolean', default: false } },
  });
  const [sub, username] = positionals;
  if ((sub !== 'grant' && sub !== 'revoke') || !username)
    throw new ApiError(2, 'usage', `usage:\n${USERS_USAGE}`);
  const baseUrl = gatewayUrl(values.url);
  const { http } = platformClient(baseUrl, loadToken(baseUrl));
  const params = { path: { username, role: 'operator' as const } };
  const account = await ok(
    sub === 'grant'
      ? http.PUT('/v1/users/{username}/roles/{role}', { params })
      : http.DELETE('/v1/users/{username}/roles/{role}', { params }),
  );
  const role = account.roles.includes('operator') ? 'an operator' : 'a tenant';
  return {
    data: account,
    text: `${account.username} is now ${role} (from its next sign-in: tokens it holds keep their roles until they expire)`,
  };
}

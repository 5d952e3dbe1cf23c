/**
 * `plat users grant|revoke USERNAME`: an operator gives an account the operator role or takes it
 * back, through `PUT|DELETE /v1/users/{username}/roles/operator`. The account's next sign-in
 * carries the change; tokens it already holds keep their roles until they expire.
 */
import type { Command } from 'commander';
import { ApiError, ok, signedInClient } from './api-client';
import { answering, groupWithoutSubcommand } from './command-kit';

export const USERS_USAGE = `  users grant USERNAME                    make an account an operator (operators only; it signs in again)
  users revoke USERNAME                   make an operator a tenant again`;

/** Registers `plat users grant|revoke USERNAME`. */
export function registerUsersCommands(program: Command): void {
  const users = program.command('users');
  for (const sub of ['grant', 'revoke'] as const)
    users
      .command(sub)
      .argument('[USERNAME]')
      .action(
        answering(async ([username], flags) => changeRole(sub, username, flags.url as string | undefined)),
      );
  groupWithoutSubcommand(users, 'users', USERS_USAGE);
}

async function changeRole(sub: 'grant' | 'revoke', username: string | undefined, url?: string) {
  if (!username) throw new ApiError(2, 'usage', `usage:\n${USERS_USAGE}`);
  const { http } = signedInClient(url);
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

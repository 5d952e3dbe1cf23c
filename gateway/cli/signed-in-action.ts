/** The action of a command that calls the gateway as the signed-in user, and its operands' helpers. */
import { signedInClient, type PlatformClient } from './api-client';
import { answering, required, type CommandResult, type Flags } from './command-kit';

/** A command's action with a client of the gateway, signed in with the saved token. */
export const withApi = (
  run: (api: PlatformClient, operands: string[], flags: Flags) => Promise<CommandResult>,
) => answering((operands, flags) => run(signedInClient(flags.url as string | undefined), operands, flags));

/** A string flag's value (undefined for a boolean or a missing one). */
export const str = (v: Flags[string]) => (typeof v === 'string' ? v : undefined);

/** The project id operand, or the usage error that asks for it. */
export const needId = (id: string | undefined) => required(id, 'a project id');

/**
 * PLAT_MEMORY_AGENT_KEYS: the memory service's scoped keys (docs/security.md#memory), a JSON list, or
 * the path of a JSON file holding one. Each key may act for the users and agents it names (`*`: any)
 * and, with `shared: true`, write the shared space every user's searches include.
 */
import * as fs from 'node:fs';
import { z } from 'zod';

const scope = z.union([z.literal('*'), z.array(z.string().min(1).max(200)).min(1)]);

const agentKeySchema = z
  .object({
    /** How the key is named in logs and errors (never the key itself). */
    name: z.string().min(1).max(100),
    key: z.string().min(16, 'a key of at least 16 characters').max(500),
    users: scope,
    agents: scope.default('*'),
    shared: z.boolean().default(false),
  })
  .strict();

export type MemoryAgentKey = z.output<typeof agentKeySchema>;

/** The keys `value` holds (JSON, or a file of JSON); throws naming the entry and field that is wrong. */
export function parseMemoryAgentKeys(value: string | undefined): MemoryAgentKey[] {
  if (!value?.trim()) return [];
  const text = value.trim().startsWith('[') ? value : readKeysFile(value.trim());
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    // Not the parser's message: it quotes the text, which holds keys.
    throw new Error('not JSON');
  }
  const parsed = z.array(agentKeySchema).safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`${issue.path.join('.') || '(the list)'}: ${issue.message}`);
  }
  const names = new Set<string>();
  for (const k of parsed.data) {
    if (names.has(k.name)) throw new Error(`${k.name}: two keys with one name`);
    names.add(k.name);
  }
  return parsed.data;
}

function readKeysFile(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (err) {
    throw new Error(`neither a JSON list nor a readable file: ${(err as Error).message}`, { cause: err });
  }
}

/**
 * What each memory caller may read and write (docs/security.md#memory). A memory another caller may
 * not see answers 404, as a memory that does not exist: a user learns nothing of others' memories.
 * The shared space is read by every search; writing it (adding, changing, deleting a shared memory)
 * needs a caller allowed to, else 403.
 */
import { SHARED_USER } from '../../shared/memory-model';
import { HttpError } from '../http-errors';
import type { MemoryCaller } from './memory-callers';

const inScope = (scope: '*' | readonly string[], value: string | undefined) =>
  scope === '*' || (value !== undefined && scope.includes(value));

/** Whether `caller` may act for `userId` (and `agentId`, when the memories are an agent's). */
export function mayActFor(caller: MemoryCaller, userId: string, agentId: string | undefined): boolean {
  switch (caller.kind) {
    case 'open':
    case 'service':
      return true;
    case 'user':
      return userId === caller.userId;
    case 'agent':
      // The shared space is the shared key's to act in, whoever else it may act for.
      if (userId === SHARED_USER) return caller.key.shared;
      return inScope(caller.key.users, userId) && inScope(caller.key.agents, agentId);
  }
}

/** Whether `caller` may write the shared space. */
export function mayWriteShared(caller: MemoryCaller): boolean {
  return (
    caller.kind === 'open' || caller.kind === 'service' || (caller.kind === 'agent' && caller.key.shared)
  );
}

const notFound = (what: string) => new HttpError(404, 'not_found', `no ${what} for this caller`);

/** Reading a user's memories (search, list, context): another user's answer 404. */
export function assertMayRead(caller: MemoryCaller, userId: string, agentId: string | undefined): void {
  if (!mayActFor(caller, userId, agentId)) throw notFound(`memories of user ${userId}`);
}

/** Adding to a user's memories, or to the shared space (403 without the right to). */
export function assertMayAdd(caller: MemoryCaller, userId: string, agentId: string | undefined): void {
  if (userId === SHARED_USER && !mayWriteShared(caller))
    throw new HttpError(403, 'forbidden', 'writing the shared space needs a key allowed to (shared: true)');
  if (!mayActFor(caller, userId, agentId)) throw notFound(`memories of user ${userId}`);
}

/** One memory, as its owner is stored: readable when the caller acts for its owner, or it is shared. */
export function assertMayReadMemory(
  caller: MemoryCaller,
  memory: { id: string; user_id: string; agent_id?: string | null },
): void {
  if (memory.user_id === SHARED_USER) return;
  if (!mayActFor(caller, memory.user_id, memory.agent_id ?? undefined)) throw notFound(`memory ${memory.id}`);
}

/** Changing or deleting one memory: its owner's caller; a shared one needs the right to write it. */
export function assertMayChangeMemory(
  caller: MemoryCaller,
  memory: { id: string; user_id: string; agent_id?: string | null },
): void {
  if (memory.user_id === SHARED_USER) {
    if (mayWriteShared(caller)) return;
    throw new HttpError(403, 'forbidden', 'changing a shared memory needs a key allowed to (shared: true)');
  }
  if (!mayActFor(caller, memory.user_id, memory.agent_id ?? undefined)) throw notFound(`memory ${memory.id}`);
}

/** Whether the caller may see every memory's history, a deleted one's included (its owner is gone with it). */
export const seesEveryHistory = (caller: MemoryCaller) => caller.kind === 'open' || caller.kind === 'service';

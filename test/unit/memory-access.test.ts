/** Who may act for whom in the memory service (docs/security.md#memory), caller by caller. */
import {
  assertMayAdd,
  assertMayChangeMemory,
  assertMayRead,
  assertMayReadMemory,
  mayActFor,
} from '../../gateway/memory/memory-access';
import type { MemoryCaller } from '../../gateway/memory/memory-callers';
import { HttpError } from '../../gateway/http-errors';

const agent = (users: '*' | string[], agents: '*' | string[], shared = false): MemoryCaller => ({
  kind: 'agent',
  key: { name: 'k', key: 'x'.repeat(16), users, agents, shared },
});
const statusOf = (fn: () => void) => {
  try {
    fn();
    return 200;
  } catch (err) {
    return (err as HttpError).status;
  }
};

describe('memory access', () => {
  it('lets a user act for itself only, and the open and service callers for anyone', () => {
    const ada: MemoryCaller = { kind: 'user', userId: 'ada' };
    expect(mayActFor(ada, 'ada', undefined)).toBe(true);
    expect(mayActFor(ada, 'ada', 'any-agent')).toBe(true);
    expect(mayActFor(ada, 'bob', undefined)).toBe(false);
    // Not by a prefix or a case: the subject itself.
    expect(mayActFor(ada, 'ADA', undefined)).toBe(false);
    expect(mayActFor(ada, 'ada ', undefined)).toBe(false);
    for (const caller of [{ kind: 'open' }, { kind: 'service' }] as MemoryCaller[])
      expect(mayActFor(caller, 'anyone', 'any-agent')).toBe(true);
  });

  it('holds a key to the users and agents it names; an agent-scoped key must name its agent', () => {
    const planner = agent(['ada'], ['planner']);
    expect(mayActFor(planner, 'ada', 'planner')).toBe(true);
    expect(mayActFor(planner, 'ada', 'coder')).toBe(false);
    expect(mayActFor(planner, 'ada', undefined)).toBe(false);
    expect(mayActFor(planner, 'bob', 'planner')).toBe(false);
    expect(mayActFor(agent('*', '*'), 'anyone', undefined)).toBe(true);
  });

  it('answers 404 for others’ memories and 403 for writing the shared space without the right', () => {
    const ada: MemoryCaller = { kind: 'user', userId: 'ada' };
    expect(statusOf(() => assertMayRead(ada, 'bob', undefined))).toBe(404);
    expect(statusOf(() => assertMayAdd(ada, 'bob', undefined))).toBe(404);
    expect(statusOf(() => assertMayAdd(ada, 'shared', undefined))).toBe(403);
    expect(statusOf(() => assertMayAdd(agent('*', '*'), 'shared', undefined))).toBe(403);
    expect(statusOf(() => assertMayAdd(agent(['ada'], '*', true), 'shared', undefined))).toBe(200);
    const bobs = { id: 'm1', user_id: 'bob', agent_id: null };
    const shared = { id: 'm2', user_id: 'shared', agent_id: null };
    expect(statusOf(() => assertMayReadMemory(ada, bobs))).toBe(404);
    expect(statusOf(() => assertMayReadMemory(ada, shared))).toBe(200);
    expect(statusOf(() => assertMayChangeMemory(ada, bobs))).toBe(404);
    expect(statusOf(() => assertMayChangeMemory(ada, shared))).toBe(403);
    expect(statusOf(() => assertMayChangeMemory({ kind: 'service' }, shared))).toBe(200);
  });
});

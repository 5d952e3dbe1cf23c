/** Warehouse queries at once: a user's own cap answers 429 at once; the gateway's cap queues in order. */
import { QuerySlots, threadPoolSize } from '../../gateway/projects/query-slots';
import { HttpError } from '../../gateway/http-errors';
import { WarehouseQueryError } from '../../domain/warehouse/warehouse-engine';

/** A query that ends when the test says so. */
function pending() {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  return { done, finish };
}

describe('query slots', () => {
  it('refuses a user past their cap with 429, and frees the slot when a query ends, even by failing', async () => {
    const slots = new QuerySlots({ perUser: 2, total: 10 });
    const a = pending();
    const b = pending();
    const first = slots.run('ana', 1_000, () => a.done);
    const second = slots.run('ana', 1_000, () => b.done);
    const third = slots.run('ana', 1_000, async () => 'ran');
    await expect(third).rejects.toMatchObject({ status: 429, code: 'too_many_queries' });
    await expect(third).rejects.toBeInstanceOf(HttpError);
    // Another user is not affected by ana's queries.
    await expect(slots.run('bob', 1_000, async () => 'bob ran')).resolves.toBe('bob ran');
    a.finish();
    await first;
    await expect(slots.run('ana', 1_000, async () => 'again')).resolves.toBe('again');
    const failing = slots.run('ana', 1_000, async () => {
      throw new Error('boom');
    });
    await expect(failing).rejects.toThrow('boom');
    b.finish();
    await second;
    await expect(
      Promise.all([slots.run('ana', 1_000, async () => 1), slots.run('ana', 1_000, async () => 2)]),
    ).resolves.toEqual([1, 2]);
  });

  it('queues past the gateway cap and runs the waiting queries in order as slots free', async () => {
    const slots = new QuerySlots({ perUser: 5, total: 1 });
    const started: string[] = [];
    const gate = pending();
    const first = slots.run('u1', 1_000, async () => {
      started.push('first');
      await gate.done;
    });
    const second = slots.run('u2', 1_000, async () => void started.push('second'));
    const third = slots.run('u3', 1_000, async () => void started.push('third'));
    await new Promise((r) => setImmediate(r));
    expect(started).toEqual(['first']);
    gate.finish();
    await Promise.all([first, second, third]);
    expect(started).toEqual(['first', 'second', 'third']);
  });

  it('answers 503 busy to a query that waited its whole time limit for a turn, and runs the rest', async () => {
    const slots = new QuerySlots({ perUser: 5, total: 1 });
    const gate = pending();
    const first = slots.run('u1', 1_000, () => gate.done);
    const waited = slots.run('u2', 50, async () => 'ran');
    await expect(waited).rejects.toMatchObject({ status: 503, code: 'busy' });
    // The one that gave up left the queue: the next in line runs when the first ends.
    const next = slots.run('u3', 1_000, async () => 'next ran');
    gate.finish();
    await first;
    await expect(next).resolves.toBe('next ran');
  });

  it('reads the thread pool size the process was started with', () => {
    expect(threadPoolSize({})).toBe(4);
    expect(threadPoolSize({ UV_THREADPOOL_SIZE: '16' })).toBe(16);
    for (const bad of ['', '0', '-3', 'lots', '1.5'])
      expect(threadPoolSize({ UV_THREADPOOL_SIZE: bad })).toBe(4);
  });

  it('keeps the slots of a query answered at its deadline until its work really ends', async () => {
    const slots = new QuerySlots({ perUser: 1, total: 1 });
    const work = pending();
    const late = slots.run('ana', 100, async () => {
      throw new WarehouseQueryError('timeout', 'query exceeded 100 ms', work.done);
    });
    await expect(late).rejects.toMatchObject({ reason: 'timeout' });
    // Still running: ana's one slot is taken, and another user waits for the gateway's one turn.
    await expect(slots.run('ana', 100, async () => 'again')).rejects.toMatchObject({ status: 429 });
    const bob = slots.run('bob', 100, async () => 'bob ran');
    work.finish();
    await expect(bob).resolves.toBe('bob ran');
    await expect(slots.run('ana', 100, async () => 'ana ran')).resolves.toBe('ana ran');
  });
});

/**
 * Windowed counters in the metadata store, as the sign-in limits use them: hits from two processes
 * add up exactly, a window ends and the next starts afresh, a key can be cleared, and ended windows
 * are pruned. The clock is injected: windows end when the test says, not when a timer fires.
 */
import { AttemptCounters } from '../../../domain/metadata-store/attempt-counters';
import { BACKENDS, storeOpener } from './backends';

const MINUTE = 60_000;

describe.each(BACKENDS)('attempt counters on $name', (backend) => {
  const stores = storeOpener(backend);
  afterAll(() => stores.closeAll());

  test('concurrent hits from two processes are each counted once', async () => {
    const location = await backend.fresh('attempt-race');
    const clock = { t: Date.parse('2026-11-27T10:00:00.000Z') };
    const a = new AttemptCounters(await stores.open(location), () => clock.t);
    const b = new AttemptCounters(await stores.open(backend.other(location)), () => clock.t);
    const counts = await Promise.all(
      Array.from({ length: 40 }, (_, i) => (i % 2 ? a : b).hit('auth-ip:203.0.113.5', MINUTE)),
    );
    expect(counts.map((c) => c.hits).sort((x, y) => x - y)).toEqual(
      Array.from({ length: 40 }, (_, i) => i + 1),
    );
    expect(new Set(counts.map((c) => c.resetsAt))).toEqual(new Set([clock.t + MINUTE]));
  });

  test('a window lasts its length from its first hit; the next hit after it starts afresh', async () => {
    const clock = { t: Date.parse('2026-11-27T10:00:30.000Z') };
    const counters = new AttemptCounters(await stores.fresh('attempt-window'), () => clock.t);
    expect(await counters.hit('k', MINUTE)).toEqual({ hits: 1, resetsAt: clock.t + MINUTE });
    const start = clock.t;
    clock.t += MINUTE - 1;
    expect(await counters.hit('k', MINUTE)).toEqual({ hits: 2, resetsAt: start + MINUTE });
    clock.t += 1;
    expect(await counters.hit('k', MINUTE)).toEqual({ hits: 1, resetsAt: clock.t + MINUTE });
    // Keys count apart, whatever they hold.
    expect((await counters.hit('auth-user:o\'brien"; DROP TABLE users; --', MINUTE)).hits).toBe(1);
    expect((await counters.hit('k', MINUTE)).hits).toBe(2);
  });

  test('clear forgets a key; prune deletes only the windows that ended', async () => {
    const clock = { t: Date.parse('2026-11-27T10:00:00.000Z') };
    const metadata = await stores.fresh('attempt-prune');
    const counters = new AttemptCounters(metadata, () => clock.t);
    await counters.hit('short', MINUTE);
    await counters.hit('long', 15 * MINUTE);
    await counters.hit('cleared', 15 * MINUTE);
    await counters.clear('cleared');
    expect((await counters.hit('cleared', 15 * MINUTE)).hits).toBe(1);
    clock.t += 2 * MINUTE;
    expect(await counters.prune()).toBe(1);
    const keys = await metadata.db.selectFrom('attempt_counters').select('key').orderBy('key').execute();
    expect(keys.map((r) => r.key)).toEqual(['cleared', 'long']);
    // Counting prunes too, at most once a minute: an hour on, the next hit leaves only its own row.
    clock.t += 60 * MINUTE;
    await counters.hit('fresh', MINUTE);
    const left = await metadata.db.selectFrom('attempt_counters').select('key').execute();
    expect(left.map((r) => r.key)).toEqual(['fresh']);
  });
});

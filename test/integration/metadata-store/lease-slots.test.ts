/**
 * Slots leased in the metadata store, as the per-user query cap uses them across gateways: of many
 * takers in two processes only as many as there are slots get one; a freed slot is free again; a
 * lease that ended (a gateway that died) is taken over, and its late release frees nothing of the
 * new holder's. The clock is injected.
 */
import { LeaseSlots } from '../../../domain/metadata-store/lease-slots';
import { BACKENDS, storeOpener } from './backends';

describe.each(BACKENDS)('lease slots on $name', (backend) => {
  const stores = storeOpener(backend);
  afterAll(() => stores.closeAll());

  test('two processes racing for two slots get two, and a freed slot is taken again', async () => {
    const location = await backend.fresh('lease-race');
    const clock = { t: Date.parse('2026-11-27T10:00:00.000Z') };
    const a = new LeaseSlots(await stores.open(location), () => clock.t);
    const b = new LeaseSlots(await stores.open(backend.other(location)), () => clock.t);
    const taken = await Promise.all(
      Array.from({ length: 12 }, (_, i) => (i % 2 ? a : b).take('query:ana', 2, 60_000)),
    );
    const held = taken.filter((s) => s !== undefined);
    expect(held.map((s) => s.slot).sort()).toEqual([0, 1]);
    // Another key has slots of its own.
    expect(await a.take('query:bob', 2, 60_000)).toMatchObject({ slot: 0 });
    expect(await b.take('query:ana', 2, 60_000)).toBeUndefined();
    await held[0].release();
    await held[0].release();
    expect(await b.take('query:ana', 2, 60_000)).toMatchObject({ slot: held[0].slot });
    expect(await a.take('query:ana', 2, 60_000)).toBeUndefined();
  });

  test('a lease that ended is taken over, and its late release leaves the new holder alone', async () => {
    const clock = { t: Date.parse('2026-11-27T10:00:00.000Z') };
    const slots = new LeaseSlots(await stores.fresh('lease-expiry'), () => clock.t);
    const dead = await slots.take(`query:o'brien"; DROP TABLE users; --`, 1, 30_000);
    expect(dead).toMatchObject({ slot: 0 });
    clock.t += 29_999;
    expect(await slots.take(`query:o'brien"; DROP TABLE users; --`, 1, 30_000)).toBeUndefined();
    clock.t += 1;
    const next = await slots.take(`query:o'brien"; DROP TABLE users; --`, 1, 30_000);
    expect(next).toMatchObject({ slot: 0 });
    await dead!.release();
    expect(await slots.take(`query:o'brien"; DROP TABLE users; --`, 1, 30_000)).toBeUndefined();
    await next!.release();
    expect(await slots.take(`query:o'brien"; DROP TABLE users; --`, 1, 30_000)).toMatchObject({ slot: 0 });
  });
});

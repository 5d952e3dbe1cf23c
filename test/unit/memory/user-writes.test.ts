/** One process's per-user write queue (domain/memory/store/user-writes.ts). */
import { inProcessUserWrites } from '../../../domain/memory/store/user-writes';

const tick = () => new Promise((r) => setImmediate(r));

describe('inProcessUserWrites', () => {
  it('runs one user’s writes one at a time, in arrival order, and other users’ alongside', async () => {
    const writes = inProcessUserWrites();
    const log: string[] = [];
    let release = () => {};
    const first = writes('ola', async () => {
      log.push('ola 1 start');
      await new Promise<void>((r) => (release = r));
      log.push('ola 1 end');
      return 1;
    });
    const second = writes('ola', async () => {
      log.push('ola 2');
      return 2;
    });
    const other = writes('pia', async () => {
      log.push('pia');
      return 3;
    });
    await tick();
    expect(await other).toBe(3);
    expect(log).toEqual(['ola 1 start', 'pia']);
    release();
    expect(await Promise.all([first, second])).toEqual([1, 2]);
    expect(log).toEqual(['ola 1 start', 'pia', 'ola 1 end', 'ola 2']);
  });

  it('goes on after a failed write, which still rejects', async () => {
    const writes = inProcessUserWrites();
    const failed = writes('ola', async () => {
      throw new Error('qdrant down');
    });
    const next = writes('ola', async () => 'stored');
    await expect(failed).rejects.toThrow('qdrant down');
    expect(await next).toBe('stored');
  });
});

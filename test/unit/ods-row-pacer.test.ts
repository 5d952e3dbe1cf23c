/** The copy's pacer (PLAT_INGEST_MAX_ROWS_PER_SECOND) on jest's fake clock. */
import { RowPacer } from '../../domain/warehouse/ods-row-pacer';

describe('RowPacer', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  const take = (pacer: RowPacer, rows: number) => {
    let wait = 0;
    for (let i = 0; i < rows; i++) wait = Math.max(wait, pacer.take());
    return wait;
  };

  it('asks for no wait while the rows stay within the rate', () => {
    const pacer = new RowPacer(10_000);
    for (let second = 0; second < 3; second++) {
      jest.advanceTimersByTime(1000);
      expect(take(pacer, 10_000)).toBe(0);
    }
  });

  it('asks a reader that is ahead to wait until the rate catches up', () => {
    const pacer = new RowPacer(10_000);
    // 2,560 rows at once: 256 ms of rows at 10,000 a second.
    expect(take(pacer, 2_559)).toBeCloseTo(230.4);
    expect(pacer.take()).toBeCloseTo(256);
    jest.advanceTimersByTime(256);
    expect(take(pacer, 255)).toBe(0);
    // Counted with every reader's rows: the next 256 put the copy 25.6 ms ahead again.
    expect(pacer.take()).toBeCloseTo(25.6);
  });

  it('refuses a rate that is not positive', () => {
    expect(() => new RowPacer(0)).toThrow(RangeError);
    expect(() => new RowPacer(-5)).toThrow(RangeError);
  });
});

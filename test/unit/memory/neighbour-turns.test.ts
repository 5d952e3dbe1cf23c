import { neighbourShares, type NeighbourRecord } from '../../../domain/memory/search/neighbour-turns';

const at = (id: string, iso: string, scope: Partial<NeighbourRecord> = {}): NeighbourRecord => ({
  id,
  agent_id: null,
  run_id: null,
  created_at: iso,
  ...scope,
});
const opts = { share: 0.5, maxGapMs: 3_600_000 };

describe('neighbourShares', () => {
  const src = at('s', '2023-05-08T10:00:00Z');
  const prev = at('p', '2023-05-08T09:59:00Z');
  const prev2 = at('p2', '2023-05-08T09:58:00Z');
  const next = at('n', '2023-05-08T10:01:00Z');

  it('gives the nearest neighbour each side share × score, the next share²', () => {
    const shares = neighbourShares(
      [{ record: src, score: 0.8 }],
      new Map([['s', [prev, prev2, next]]]),
      opts,
    );
    expect(shares.get('p')?.share).toBeCloseTo(0.4);
    expect(shares.get('n')?.share).toBeCloseTo(0.4);
    expect(shares.get('p2')?.share).toBeCloseTo(0.2);
    expect(shares.has('s')).toBe(false);
  });

  it('keeps the best share when two sources share a neighbour', () => {
    const other = at('o', '2023-05-08T10:02:00Z');
    const shares = neighbourShares(
      [
        { record: src, score: 0.4 },
        { record: other, score: 0.9 },
      ],
      new Map([
        ['s', [next]],
        ['o', [next]],
      ]),
      opts,
    );
    expect(shares.get('n')?.share).toBeCloseTo(0.45);
    expect(shares.get('n')?.from).toBe('o');
  });

  it('gives nothing across scopes, across a gap, or from a zero or broken score', () => {
    const otherAgent = at('a', '2023-05-08T10:00:30Z', { agent_id: 'bot' });
    const otherRun = at('r', '2023-05-08T10:00:40Z', { run_id: '2023-05-08' });
    const far = at('f', '2023-05-09T10:00:00Z');
    const broken = at('b', 'not a date');
    expect(
      neighbourShares(
        [{ record: src, score: 1 }],
        new Map([['s', [otherAgent, otherRun, far, broken]]]),
        opts,
      ).size,
    ).toBe(0);
    expect(neighbourShares([{ record: src, score: 0 }], new Map([['s', [next]]]), opts).size).toBe(0);
    expect(neighbourShares([{ record: src, score: NaN }], new Map([['s', [next]]]), opts).size).toBe(0);
    expect(
      neighbourShares([{ record: at('x', 'garbage'), score: 1 }], new Map([['x', [next]]]), opts).size,
    ).toBe(0);
  });

  it('answers nothing for no sources, and clamps scores above 1', () => {
    expect(neighbourShares([], new Map(), opts).size).toBe(0);
    expect(
      neighbourShares([{ record: src, score: 7 }], new Map([['s', [next]]]), opts).get('n')?.share,
    ).toBeCloseTo(0.5);
  });

  it('stays linear on a huge neighbour list', () => {
    const many = Array.from({ length: 20_000 }, (_, i) =>
      at(`m${i}`, new Date(Date.parse('2023-05-08T10:00:00Z') + (i + 1) * 100).toISOString()),
    );
    const shares = neighbourShares([{ record: src, score: 1 }], new Map([['s', many]]), opts);
    expect(shares.get('m0')?.share).toBeCloseTo(0.5);
    expect(shares.size).toBeGreaterThan(20); // tiny shares still counted, never above the nearest
    expect(Math.max(...[...shares.values()].map((s) => s.share))).toBeCloseTo(0.5);
  });
});

import { SeededRandom } from '../../scripts/demo-data/random';
import {
  decimal,
  insertStatements,
  literal,
  money,
  quote,
  roundHalfUp,
} from '../../scripts/demo-data/sql-literals';
import { GeneratedTable } from '../../scripts/demo-data/table-builder';
import { parseStartArgs, startHelp } from '../../scripts/lib/start-options';

describe('SQL literals', () => {
  it('writes exact decimals from integers', () => {
    expect(money(1999).text).toBe('19.99');
    expect(money(5).text).toBe('0.05');
    expect(money(-250).text).toBe('-2.50');
    expect(decimal(75, 3).text).toBe('0.075');
    expect(decimal(12, 0).text).toBe('12');
    expect(() => decimal(1.5, 2)).toThrow(/integer/);
  });

  it('quotes strings and refuses inexact numbers', () => {
    expect(quote("O'Brien \\ co")).toBe("'O''Brien \\\\ co'");
    expect(quote('a\nb')).toBe("'a\\nb'");
    expect(literal(null)).toBe('NULL');
    expect(literal(42)).toBe('42');
    expect(() => literal(0.1)).toThrow(/exact integer/);
  });

  it('rounds half away from zero, like MySQL on decimals', () => {
    expect(roundHalfUp(2.5)).toBe(3);
    expect(roundHalfUp(-2.5)).toBe(-3);
    expect(roundHalfUp(2.4999)).toBe(2);
  });

  it('batches rows into multi-row INSERTs', () => {
    const rows = Array.from({ length: 5 }, (_, i) => [i, `n${i}`]);
    const statements = insertStatements('t', ['id', 'name'], rows, 2);
    expect(statements).toHaveLength(3);
    expect(statements[0]).toBe("INSERT INTO `t` (`id`, `name`) VALUES\n(0,'n0'),\n(1,'n1')");
  });

  it('checks every row names exactly the table columns', () => {
    const table = new GeneratedTable('t', { a: 'INT', b: 'INT' });
    expect(() => table.add({ a: 1 } as never)).toThrow(/no value for column b/);
    expect(() => table.add({ a: 1, b: 2, c: 3 } as never)).toThrow(/unknown column/);
    table.add({ a: 1, b: null });
    expect(table.createStatement()).toContain('`b` INT');
  });
});

describe('seeded random numbers', () => {
  it('repeats a sequence for a seed and differs for another', () => {
    const a = new SeededRandom(3);
    const b = new SeededRandom(3);
    const seqA = Array.from({ length: 20 }, () => a.next());
    expect(Array.from({ length: 20 }, () => b.next())).toEqual(seqA);
    const c = new SeededRandom(4);
    expect(Array.from({ length: 20 }, () => c.next())).not.toEqual(seqA);
    expect(seqA.every((x) => x >= 0 && x < 1)).toBe(true);
  });

  it('forks independent streams by label', () => {
    const root = new SeededRandom(9);
    expect(root.fork('x').next()).toBe(new SeededRandom(9).fork('x').next());
    expect(root.fork('x').next()).not.toBe(root.fork('y').next());
  });

  it('draws Poisson counts around their mean', () => {
    const rng = new SeededRandom(1);
    const draws = Array.from({ length: 4000 }, () => rng.poisson(3));
    const mean = draws.reduce((a, b) => a + b, 0) / draws.length;
    expect(mean).toBeGreaterThan(2.85);
    expect(mean).toBeLessThan(3.15);
  });
});

describe('npm start --demo-scale', () => {
  it('parses the scale (and implies --with-demo-db)', () => {
    expect(parseStartArgs([]).demoScale).toBe(1);
    expect(parseStartArgs(['--with-demo-db', '--demo-scale', '0.2'])).toMatchObject({
      withDemoDb: true,
      demoScale: 0.2,
    });
    expect(parseStartArgs(['--demo-scale=3'])).toMatchObject({ withDemoDb: true, demoScale: 3 });
  });

  it('rejects what is not a positive number, naming the option', () => {
    for (const bad of [
      ['--demo-scale'],
      ['--demo-scale', '0'],
      ['--demo-scale', '-1'],
      ['--demo-scale', 'big'],
      ['--demo-scale='],
    ]) {
      expect(() => parseStartArgs(bad)).toThrow(/--demo-scale needs a number greater than 0/);
    }
  });

  it('is documented in --help with the database name', () => {
    expect(startHelp()).toContain('--demo-scale N');
    expect(startHelp()).toContain('demo_store');
  });

  it('loads the schema zoo with --with-zoo, which implies the demo database', () => {
    expect(parseStartArgs(['--with-zoo'])).toMatchObject({ withZoo: true, withDemoDb: true });
    expect(parseStartArgs(['--with-demo-db']).withZoo).toBe(false);
    expect(startHelp()).toContain('--with-zoo');
  });
});

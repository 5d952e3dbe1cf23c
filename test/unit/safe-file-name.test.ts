/**
 * Names are never paths: any string a source or a user supplies becomes one safe, distinct file
 * name, and a path built from parts stays inside its directory, links included.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  MAX_FILE_NAME_LENGTH,
  PathEscapeError,
  fileNameFor,
  isFileNameFor,
  pathInside,
} from '../../shared/safe-file-name';
import { seededRandom } from '../../scripts/demo-data/random';

/** Pieces hostile names are made of: separators, dots, controls, quotes, globs, unicode, surrogates. */
const PIECES = [
  '/',
  '\\',
  '.',
  '..',
  '../',
  '..\\',
  '%',
  '%2F',
  '%2E',
  '~',
  '*',
  '?',
  '[',
  ']',
  '{',
  '}',
  '$',
  '`',
  "'",
  '"',
  ' ',
  '\t',
  '\n',
  '\r',
  '\x01',
  '\x7f',
  ':',
  ';',
  '|',
  '<',
  '>',
  '&',
  '#',
  '!',
  '+',
  '=',
  ',',
  '@',
  'a',
  'Z',
  '0',
  '_',
  '-',
  'ods',
  'CON',
  'nul',
  'é',
  'ß',
  'İ',
  '日本',
  '😀',
  '\u200b',
  '\u202e',
  '\ufeff',
  '\ud800',
  '\udc00',
  'x'.repeat(60),
  '%'.repeat(40),
];

function hostileNames(seed: number, count: number): string[] {
  const random = seededRandom(seed);
  const pick = () => PIECES[Math.floor(random() * PIECES.length)];
  return Array.from({ length: count }, () =>
    Array.from({ length: Math.floor(random() * 12) }, pick).join(''),
  );
}

const NAMED_CASES = [
  '',
  '.',
  '..',
  '...',
  'a/b',
  'a\\b',
  '../../x',
  '/etc/passwd',
  '..%2F..%2Fx',
  '~',
  'CON',
  'x'.repeat(500),
  'é'.repeat(200),
  "x'; DROP TABLE y; --",
  'Order Lines',
  '*',
  '"q"',
  '\u0000',
];

function assertSafeSegment(file: string) {
  expect(file.length).toBeGreaterThan(0);
  expect(file.length).toBeLessThanOrEqual(MAX_FILE_NAME_LENGTH);
  expect(file).toMatch(/^[A-Za-z0-9_%~-]+$/);
  expect(file).not.toMatch(/^\.+$/);
  expect(path.basename(file)).toBe(file);
}

describe('fileNameFor', () => {
  it('keeps ordinary names as they were (existing projects find their files)', () => {
    for (const name of ['orders', 'film_actor', 'Customer', 'order-lines', 'x9', '_t'])
      expect(fileNameFor(name)).toBe(name);
  });

  it('encodes the named awkward cases readably', () => {
    expect(fileNameFor('..')).toBe('%2E%2E');
    expect(fileNameFor('.')).toBe('%2E');
    expect(fileNameFor('a/b')).toBe('a%2Fb');
    expect(fileNameFor('../../x')).toBe('%2E%2E%2F%2E%2E%2Fx');
    expect(fileNameFor('Order Lines')).toBe('Order%20Lines');
    expect(fileNameFor('%2F')).toBe('%252F');
    expect(fileNameFor('é')).toBe('%C3%A9');
    expect(fileNameFor('')).toBe('%');
  });

  it('gives every named case one safe path segment of bounded length', () => {
    for (const name of NAMED_CASES) assertSafeSegment(fileNameFor(name));
  });

  it('shortens a long name to its beginning plus a hash, never cutting an escape', () => {
    const long = fileNameFor(`${'é'.repeat(100)}tail`);
    expect(long).toMatch(/^(%C3%A9)+~[0-9a-f]{32}$/);
    expect(fileNameFor('x'.repeat(500))).not.toBe(fileNameFor(`${'x'.repeat(499)}y`));
    expect(fileNameFor('x'.repeat(MAX_FILE_NAME_LENGTH))).toBe('x'.repeat(MAX_FILE_NAME_LENGTH));
    expect(fileNameFor('x'.repeat(MAX_FILE_NAME_LENGTH + 1))).toContain('~');
  });

  it('tells apart names Node would encode alike (lone surrogates are not U+FFFD)', () => {
    expect(fileNameFor('\ud800')).not.toBe(fileNameFor('\ufffd'));
    expect(fileNameFor('\udc00')).not.toBe(fileNameFor('\ud800'));
  });

  it.each([1, 2, 3, 4, 5])(
    'maps 4,000 generated hostile names (seed %i) to safe, distinct segments',
    (seed) => {
      const names = [...new Set([...hostileNames(seed, 4000), ...NAMED_CASES])];
      const files = new Map<string, string>();
      for (const name of names) {
        const file = fileNameFor(name);
        assertSafeSegment(file);
        const other = files.get(file);
        if (other !== undefined)
          throw new Error(`${JSON.stringify(name)} and ${JSON.stringify(other)} → ${file}`);
        files.set(file, name);
        expect(fileNameFor(name)).toBe(file);
      }
    },
  );

  it('gives distinct long names distinct files, however alike their beginnings', () => {
    const prefix = '../'.repeat(60);
    const files = new Set(Array.from({ length: 2000 }, (_, i) => fileNameFor(`${prefix}${i}`)));
    expect(files.size).toBe(2000);
  });
});

describe('pathInside', () => {
  let dir: string;
  let outside: string;
  beforeEach(() => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'plat-path-inside-'));
    dir = path.join(root, 'project');
    outside = path.join(root, 'other');
    fs.mkdirSync(dir);
    fs.mkdirSync(outside);
  });

  it('joins parts below the directory', () => {
    expect(pathInside(dir, 'ods', 'orders.parquet')).toBe(path.join(dir, 'ods', 'orders.parquet'));
    expect(pathInside(dir, 'a/b/../c')).toBe(path.join(dir, 'a', 'c'));
    expect(pathInside(`${dir}/`, 'x')).toBe(path.join(dir, 'x'));
  });

  it.each([
    [['..']],
    [['.']],
    [['']],
    [['../other/x']],
    [['a', '..', '..', 'x']],
    [['/etc/passwd']],
    [['a', '/etc']],
    [['x\0y']],
    [['../projectx']],
  ])('refuses %j, which is not strictly inside', (parts) => {
    expect(() => pathInside(dir, ...parts)).toThrow(PathEscapeError);
  });

  it('refuses a path through a link to outside, and keeps a link that stays inside', () => {
    fs.symlinkSync(outside, path.join(dir, 'escape'));
    fs.mkdirSync(path.join(dir, 'real'));
    fs.symlinkSync(path.join(dir, 'real'), path.join(dir, 'inner'));
    expect(() => pathInside(dir, 'escape', 'x.parquet')).toThrow(/symbolic link/);
    expect(() => pathInside(dir, 'escape', 'not', 'yet', 'there')).toThrow(/symbolic link/);
    expect(pathInside(dir, 'inner', 'x.parquet')).toBe(path.join(dir, 'inner', 'x.parquet'));
  });

  it('refuses a dangling link that points outside (writing through it would create the file there)', () => {
    fs.symlinkSync(path.join(outside, 'created-by-write'), path.join(dir, 'dangling'));
    expect(() => pathInside(dir, 'dangling')).toThrow(/symbolic link/);
    fs.symlinkSync(path.join(dir, 'loop-b'), path.join(dir, 'loop-a'));
    fs.symlinkSync(path.join(dir, 'loop-a'), path.join(dir, 'loop-b'));
    expect(() => pathInside(dir, 'loop-a')).toThrow();
  });

  it('is not fooled by a directory that is itself reached through a link', () => {
    const linked = path.join(outside, 'to-project');
    fs.symlinkSync(dir, linked);
    expect(pathInside(linked, 'x')).toBe(path.join(linked, 'x'));
    expect(() => pathInside(linked, '..', 'x')).toThrow(PathEscapeError);
  });

  it('keeps every generated hostile name, encoded, inside the directory', () => {
    for (const name of hostileNames(7, 2000)) {
      const file = pathInside(dir, 'ods', `${fileNameFor(name)}.parquet`);
      expect(path.dirname(file)).toBe(path.join(dir, 'ods'));
    }
  });
});

describe('isFileNameFor', () => {
  it('accepts what fileNameFor returns and refuses paths, dots and raw names', () => {
    for (const name of [...NAMED_CASES, ...hostileNames(11, 500)])
      expect(isFileNameFor(fileNameFor(name))).toBe(true);
    for (const raw of [
      '',
      '.',
      '..',
      'a/b',
      'a.b',
      '%2',
      '%zz',
      '%2f',
      'a~b',
      `~${'0'.repeat(31)}`,
      'x'.repeat(121),
      'é',
    ])
      expect(isFileNameFor(raw)).toBe(false);
  });
});

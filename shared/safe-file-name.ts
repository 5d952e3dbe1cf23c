/**
 * File names from names plat does not choose: a source server may name a table or a column anything
 * but NUL (`../../x`, `a/b`, `*`, `.`), and those names end up in file and object names. Every such
 * name goes through {@link fileNameFor}; every path built below a directory from one goes through
 * {@link pathInside} (docs/architecture.md#file-names-from-source-names).
 *
 * Node only (hashing, the filesystem): not for workflows.
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * Longest name {@link fileNameFor} returns. Well under the 255 bytes filesystems allow, so the
 * suffixes added to it (`.parquet`, `.<attempt>.tmp`) still fit.
 */
export const MAX_FILE_NAME_LENGTH = 120;

/** Characters kept as they are; every other byte of the name's UTF-8 becomes `%XX`. */
const KEPT = /^[A-Za-z0-9_-]$/;
/** Marks a shortened name: never produced by the encoding itself, which writes `~` as `%7E`. */
const SHORTENED = '~';
const HASH_HEX_DIGITS = 32;
/** The file name of the empty name: `%` alone is no encoding's output either. */
const EMPTY = '%';

/**
 * One safe path segment for any string, readable and distinct per name:
 * - `A-Z a-z 0-9 _ -` stay as they are (so `orders` → `orders`, as before this encoding), every other
 *   character is its UTF-8 bytes as `%XX` (`a/b` → `a%2Fb`, `..` → `%2E%2E`, `Order Lines` →
 *   `Order%20Lines`): never `.`, `..`, a separator, a glob or a quote;
 * - a name whose encoding exceeds {@link MAX_FILE_NAME_LENGTH} keeps its encoding's beginning, then
 *   `~` and 128 bits of the name's SHA-256.
 * Two different names never get the same file name: the encoding is reversible, and a shortened
 * name differs from every unshortened one by its `~` (and from other shortened ones by its hash).
 * Letter case is kept, so on a case-insensitive filesystem `Orders` and `orders` share a file.
 */
export function fileNameFor(name: string): string {
  if (name === '') return EMPTY;
  let encoded = '';
  const ends: number[] = [];
  const all: number[] = [];
  for (const ch of name) {
    const bytes = wtf8(ch.codePointAt(0)!);
    encoded += bytes.length === 1 && KEPT.test(ch) ? ch : bytes.map(escaped).join('');
    ends.push(encoded.length);
    all.push(...bytes);
  }
  if (encoded.length <= MAX_FILE_NAME_LENGTH) return encoded;
  const room = MAX_FILE_NAME_LENGTH - SHORTENED.length - HASH_HEX_DIGITS;
  // Cut between two characters, never inside one's escapes.
  const cut = ends.filter((end) => end <= room).pop() ?? 0;
  const hash = createHash('sha256').update(Buffer.from(all)).digest('hex').slice(0, HASH_HEX_DIGITS);
  return `${encoded.slice(0, cut)}${SHORTENED}${hash}`;
}

/**
 * Whether `fileName` is shaped like a {@link fileNameFor} result: for names read back from a
 * directory listing (such as a layer's files) before they become keys or paths again.
 */
export function isFileNameFor(fileName: string): boolean {
  return fileName.length <= MAX_FILE_NAME_LENGTH && ENCODED.test(fileName);
}

const ENCODED = new RegExp(
  `^(?:%|(?:[A-Za-z0-9_-]|%[0-9A-F]{2})+|(?:[A-Za-z0-9_-]|%[0-9A-F]{2})*${SHORTENED}[0-9a-f]{${HASH_HEX_DIGITS}})$`,
);

const escaped = (byte: number) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;

/**
 * A code point as UTF-8, lone surrogates included (WTF-8): Node's UTF-8 encoder would turn every
 * lone surrogate into U+FFFD, and so give two different names the same bytes.
 */
function wtf8(cp: number): number[] {
  if (cp < 0x80) return [cp];
  if (cp < 0x800) return [0xc0 | (cp >> 6), 0x80 | (cp & 0x3f)];
  if (cp < 0x10000) return [0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 0x3f), 0x80 | (cp & 0x3f)];
  return [0xf0 | (cp >> 18), 0x80 | ((cp >> 12) & 0x3f), 0x80 | ((cp >> 6) & 0x3f), 0x80 | (cp & 0x3f)];
}

/** A path that would leave the directory it was built in. */
export class PathEscapeError extends Error {
  constructor(
    readonly dir: string,
    readonly parts: string[],
    reason: string,
  ) {
    super(`${JSON.stringify(parts.join('/'))} is not a path inside ${dir}: ${reason}`);
    this.name = 'PathEscapeError';
  }
}

/**
 * `parts` joined below `dir`, resolved; throws {@link PathEscapeError} unless the result lies
 * strictly inside `dir`, both as written (after `..` and absolute parts are resolved) and on disk
 * (the deepest part of the path that exists is resolved through its symbolic links, and so is
 * `dir`). What does not exist yet cannot be a link, so creating it there stays inside; a link
 * created after the check is not seen.
 */
export function pathInside(dir: string, ...parts: string[]): string {
  const fail = (reason: string) => new PathEscapeError(dir, parts, reason);
  if (parts.some((p) => p.includes('\0'))) throw fail('a part holds a NUL byte');
  const base = path.resolve(dir);
  const target = path.resolve(base, ...parts);
  if (!isBelow(base, target)) throw fail('it resolves outside');
  if (!isBelow(realPathOf(base), realPathOf(target))) throw fail('a symbolic link leads outside');
  return target;
}

function isBelow(base: string, target: string): boolean {
  const relative = path.relative(base, target);
  if (relative === '' || path.isAbsolute(relative)) return false;
  return relative !== '..' && !relative.startsWith(`..${path.sep}`);
}

/**
 * `p` with its deepest existing ancestor (or itself) resolved through symbolic links. A dangling
 * link counts as where it points: writing through it would create the file there.
 */
function realPathOf(p: string, links = 0): string {
  const rest: string[] = [];
  for (let at = p; ; at = path.dirname(at)) {
    try {
      return path.join(fs.realpathSync(at), ...rest);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT' || path.dirname(at) === at) throw err;
      const entry = fs.lstatSync(at, { throwIfNoEntry: false });
      if (entry?.isSymbolicLink()) {
        if (links >= MAX_LINKS) throw new Error(`${at}: too many levels of symbolic links`, { cause: err });
        const pointsTo = path.resolve(path.dirname(at), fs.readlinkSync(at));
        return path.join(realPathOf(pointsTo, links + 1), ...rest);
      }
      rest.unshift(path.basename(at));
    }
  }
}

/** Links followed through dangling ones at most (Linux's own limit). */
const MAX_LINKS = 40;

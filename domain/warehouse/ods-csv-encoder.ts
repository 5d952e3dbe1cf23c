/**
 * MySQL text-protocol result rows → tab-separated text for DuckDB's `read_csv`, without building
 * JavaScript values: a row packet is a 4-byte header then one length-encoded string per column
 * (0xFB = NULL). DuckDB parses the text exactly as MySQL printed it (DECIMAL digits, unsigned BIGINT,
 * DATETIME without time-zone shifts).
 *
 * Line format, read back with the options of {@link csvReadOptions}: every line starts with a line
 * feed and a three-byte marker field, `\n000\t`, then the values separated by tabs:
 * - NULL is an empty unquoted field; an empty string is quoted (quoted empties are not NULL there);
 * - the quote is the control byte SOH, so ordinary text (quotes, commas) stays as it is; a value
 *   holding SOH, TAB, CR or LF is quoted, its SOH bytes doubled;
 * - binary values are base64 (arbitrary bytes are not valid UTF-8, which DuckDB requires of text).
 *
 * Why the marker: the five bytes between two rows in the received data (the next packet's header
 * and its first length byte) become `\n000\t`, and every other length byte a tab, in place. So the
 * common row (short values, nothing to quote) is not copied at all: runs of such rows are handed on
 * as slices of the buffer the network delivered. Other rows are re-encoded into a buffer of our own.
 */
import { quoteLiteral } from '../../shared/sql-quoting';

const NULL_MARKER = 0xfb;
/** Quote (and escape) byte: SOH, which text data practically never holds, unlike `"`. */
const QUOTE = 0x01;
const TAB = 0x09;
const LF = 0x0a;
const CR = 0x0d;
const ZERO = 0x30;
/** Bytes that force quoting: all at or below CR, so one comparison clears almost every byte. */
const SPECIAL = new Uint8Array(256);
for (const b of [QUOTE, TAB, LF, CR]) SPECIAL[b] = 1;
/** The bytes that start every line. */
const LINE_START = Buffer.from('\n000\t', 'latin1');
/** DuckDB's CSV buffer, unless a line may be longer: from a pipe, 4 MB read faster than 16 or 32 MB. */
const MIN_BUFFER_BYTES = 4 * 1024 * 1024;
/** Room past the chunk size, so a chunk is handed over whole rows at a time. */
const CHUNK_SLACK = 64 * 1024;

/** Bytes a line takes beyond its values and their separators. */
export const LINE_OVERHEAD = LINE_START.length;

/**
 * The `read_csv` options matching the encoder's output: the marker column first (under a name no
 * real column has), then `columnTypes` in order.
 */
export function csvReadOptions(columnTypes: Record<string, string>, maxLineBytes: number): string {
  const taken = new Set(Object.keys(columnTypes).map((n) => n.toLowerCase()));
  let marker = '_plat_line';
  while (taken.has(marker)) marker = `_${marker}`;
  const columns = [[marker, 'VARCHAR'], ...Object.entries(columnTypes)]
    .map(([name, type]) => `${quoteLiteral(name)}: ${quoteLiteral(type)}`)
    .join(', ');
  return [
    `columns = {${columns}}`,
    'header = false',
    'auto_detect = false',
    "delim = '\\t'",
    `quote = chr(${QUOTE})`,
    `escape = chr(${QUOTE})`,
    "new_line = '\\n'",
    "nullstr = ''",
    'allow_quoted_nulls = false',
    // The longest line the source can produce must fit (and a buffer must exceed a line).
    `max_line_size = ${maxLineBytes}`,
    `buffer_size = ${Math.max(maxLineBytes + 1, MIN_BUFFER_BYTES)}`,
  ].join(', ');
}

/**
 * What a column's values may hold: `digits` for what MySQL prints with digits and punctuation only
 * (numbers, dates, times: never a byte that needs quoting, so never scanned), `text` for anything
 * else textual, `bytes` for binary values (base64).
 */
export type ValueKind = 'digits' | 'text' | 'bytes';

/**
 * Encodes row packets into chunks of whole lines, so chunks of several readers can be interleaved in
 * one stream in any order. A chunk handed to `emit` is never written to again.
 */
export class CsvRowEncoder {
  /** Our own buffer, for rows that cannot be passed on in place. */
  private out: Buffer;
  private pos = 0;
  /** The run of in-place rows not yet handed on: absolute byte range in `runMemory`. */
  private runMemory: ArrayBufferLike | undefined;
  private runStart = 0;
  private runEnd = 0;
  private readonly scan: boolean[];
  /** NULLs seen per column (to tell, after casting, how many values a TRY_CAST turned into NULL). */
  readonly nulls: number[];

  constructor(
    private readonly kinds: readonly ValueKind[],
    private readonly emit: (chunk: Buffer) => void,
    private readonly chunkBytes = 1 << 20,
  ) {
    this.out = Buffer.allocUnsafe(chunkBytes + CHUNK_SLACK);
    this.nulls = kinds.map(() => 0);
    this.scan = kinds.map((k) => k === 'text');
  }

  /**
   * Encodes one row: the packet payload `src[start, end)`. The four bytes before `start` are the
   * packet's header; they and the payload may be overwritten (nothing reads a packet after it has
   * been handled).
   */
  encode(src: Buffer, start: number, end: number): void {
    if (this.rewriteInPlace(src, start, end)) {
      const memory = src.buffer;
      const from = src.byteOffset + start - 4;
      if (memory !== this.runMemory || from !== this.runEnd) {
        this.emitRun();
        this.runMemory = memory;
        this.runStart = from;
      }
      this.runEnd = src.byteOffset + end;
      if (this.runEnd - this.runStart >= this.chunkBytes) this.emitRun();
    } else {
      this.encodeCopy(src, start, end);
      if (this.pos >= this.chunkBytes) this.emitOwn();
    }
  }

  /** Hands over everything pending. */
  flush(): void {
    this.emitRun();
    this.emitOwn();
  }

  /**
   * The common row, every value NULL or 1-250 bytes of text with nothing to quote, is turned into its
   * line where it lies: header → `\n000`, each length byte → tab. Leaves any other row untouched.
   */
  private rewriteInPlace(src: Buffer, start: number, end: number): boolean {
    const { kinds, scan } = this;
    const columns = kinds.length;
    if (start < 4) return false;
    let p = start;
    for (let col = 0; col < columns; col++) {
      const len = src[p];
      if (len === NULL_MARKER) {
        p++;
        continue;
      }
      if (len === 0 || len > NULL_MARKER || kinds[col] === 'bytes') return false;
      const valueEnd = p + 1 + len;
      if (scan[col]) {
        for (let i = p + 1; i < valueEnd; i++) {
          const c = src[i];
          if (c <= CR && SPECIAL[c] === 1) return false;
        }
      }
      p = valueEnd;
    }
    if (p !== end) return false;
    src[start - 4] = LF;
    src[start - 3] = ZERO;
    src[start - 2] = ZERO;
    src[start - 1] = ZERO;
    p = start;
    for (let col = 0; col < columns; col++) {
      const len = src[p];
      src[p] = TAB;
      if (len === NULL_MARKER) {
        this.nulls[col]++;
        p++;
      } else p += 1 + len;
    }
    return true;
  }

  /** Any other row (long values, empty strings, bytes, values to quote), written to our buffer. */
  private encodeCopy(src: Buffer, start: number, end: number): void {
    const { kinds, scan } = this;
    const columns = kinds.length;
    // Room for the worst case (every byte doubled by quoting; base64 is less), once per row.
    this.reserve(2 * (end - start) + 3 * columns + LINE_OVERHEAD);
    const out = this.out;
    let o = this.pos + LINE_START.copy(out, this.pos);
    let p = start;
    for (let col = 0; col < columns; col++) {
      if (col > 0) out[o++] = TAB;
      const first = src[p];
      if (first === NULL_MARKER) {
        this.nulls[col]++;
        p++;
        continue;
      }
      let len: number;
      if (first < 0xfb) {
        len = first;
        p += 1;
      } else if (first === 0xfc) {
        len = src[p + 1] | (src[p + 2] << 8);
        p += 3;
      } else if (first === 0xfd) {
        len = src[p + 1] | (src[p + 2] << 8) | (src[p + 3] << 16);
        p += 4;
      } else {
        // 0xFE: 8 bytes; a value is below 4 GiB (MySQL's largest LONGBLOB), so the low 4 bytes suffice.
        len = src.readUInt32LE(p + 1);
        p += 9;
      }
      const valueEnd = p + len;
      if (valueEnd > end) throw new Error('malformed row packet: a value runs past the packet');
      if (len === 0) {
        out[o++] = QUOTE;
        out[o++] = QUOTE;
      } else if (kinds[col] === 'bytes') {
        o += out.write(src.toString('base64', p, valueEnd), o, 'latin1');
      } else if (scan[col] && needsQuoting(src, p, valueEnd)) {
        o = writeQuoted(src, p, valueEnd, out, o);
      } else {
        o += src.copy(out, o, p, valueEnd);
      }
      p = valueEnd;
    }
    if (p !== end) throw new Error('malformed row packet: bytes left after the last value');
    this.pos = o;
  }

  private emitRun(): void {
    if (this.runMemory === undefined || this.runEnd === this.runStart) return;
    const run = Buffer.from(this.runMemory, this.runStart, this.runEnd - this.runStart);
    this.runMemory = undefined;
    this.runStart = this.runEnd = 0;
    this.emit(run);
  }

  private emitOwn(): void {
    if (this.pos === 0) return;
    const full = this.out.subarray(0, this.pos);
    this.out = Buffer.allocUnsafe(this.chunkBytes + CHUNK_SLACK);
    this.pos = 0;
    this.emit(full);
  }

  /** Makes room for `bytes` more at a row start: hands over the rows so far when they do not fit. */
  private reserve(bytes: number): void {
    if (this.pos + bytes <= this.out.length) return;
    const finished = this.out.subarray(0, this.pos);
    this.out = Buffer.allocUnsafe(Math.max(this.chunkBytes + CHUNK_SLACK, bytes));
    this.pos = 0;
    if (finished.length > 0) this.emit(finished);
  }
}

function needsQuoting(src: Buffer, p: number, end: number): boolean {
  for (let i = p; i < end; i++) {
    const c = src[i];
    if (c <= CR && SPECIAL[c] === 1) return true;
  }
  return false;
}

/** Writes `src[p, end)` quoted at `out[o]`, doubling quote bytes; returns the new write position. */
function writeQuoted(src: Buffer, p: number, end: number, out: Buffer, o: number): number {
  out[o++] = QUOTE;
  for (let i = p; i < end; i++) {
    const c = src[i];
    out[o++] = c;
    if (c === QUOTE) out[o++] = QUOTE;
  }
  out[o++] = QUOTE;
  return o;
}

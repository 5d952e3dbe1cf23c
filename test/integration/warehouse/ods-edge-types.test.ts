/**
 * Source → ODS for every awkward MySQL type, value by value: exact DECIMAL(65,30), dates with
 * microseconds, zero dates (NULL and a warning), BIGINT UNSIGNED max, ENUM/SET, JSON, bytes, BIT,
 * YEAR, spatial (WKT), TIME beyond a day, text full of separators, a 5 MB LONGTEXT and NULL
 * everywhere. Also read by a SELECT-only user, who cannot share a snapshot across connections and
 * so gets one reader: the same values.
 */
import type { SourceConnector } from '../../../domain/sources/mysql-connection';
import { harnessSource, ingestFresh } from '../../harness/sakila';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { Connection, RowDataPacket } from 'mysql2/promise';
import { exploreSource } from '../../../domain/sources/source-explorer';
import type { OdsIngestionResult } from '../../../domain/warehouse/ods-ingestion';
import { mariadbProgram } from '../../../scripts/lib/tool-paths';
import { harness } from '../../harness/harness-state';
import { connectMariaDb, duckRows } from './ods-fixtures';

const DB = 'ods_edge_types';
const READ_ONLY_USER = 'ods_edge_reader';
const READ_ONLY_PASSWORD = 'ods-edge-reader-pw';
const ALL_BYTES = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
const AWKWARD_TEXT = 'tab\there\nnew line\r\x01soh "quoted", commas; ünïcødé 😀 \\ back\\slash';
const BIG_TEXT_CHARS = 5 * 1024 * 1024;

function connect(database?: string, login?: { user: string; password: string }): Promise<Connection> {
  return connectMariaDb({ database, supportBigNumbers: true, bigNumberStrings: true, ...login });
}

async function createSource(): Promise<void> {
  const admin = await connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${DB}`);
    await admin.query(`CREATE DATABASE ${DB}`);
    // The test account may not grant; root may, over the server's socket.
    await promisify(execFile)(mariadbProgram('mariadb'), [
      '--no-defaults',
      `--socket=${harness().mariadb.socket}`,
      '-uroot',
      '-e',
      `CREATE USER IF NOT EXISTS '${READ_ONLY_USER}'@'%' IDENTIFIED BY '${READ_ONLY_PASSWORD}';
       GRANT SELECT ON ${DB}.* TO '${READ_ONLY_USER}'@'%';`,
    ]);
    await admin.query(`USE ${DB}`);
    // Zero dates need a sql_mode without NO_ZERO_DATE / NO_ZERO_IN_DATE / strict mode.
    await admin.query("SET SESSION sql_mode = ''");
    await admin.query("SET SESSION time_zone = '+00:00'");
    await admin.query(`CREATE TABLE edge (
      id INT NOT NULL PRIMARY KEY,
      dec65 DECIMAL(65,30) NULL,
      d DATE NULL,
      dt6 DATETIME(6) NULL,
      ts TIMESTAMP NULL DEFAULT NULL,
      tm TIME NULL,
      ubig BIGINT UNSIGNED NULL,
      e ENUM('small','medium','large') NULL,
      s SET('a','b','c') NULL,
      j JSON NULL,
      bl BLOB NULL,
      bin BINARY(4) NULL,
      vbin VARBINARY(16) NULL,
      b1 BIT(1) NULL,
      b10 BIT(10) NULL,
      y YEAR NULL,
      g POINT NULL,
      flag TINYINT(1) NULL,
      txt VARCHAR(200) NULL,
      big LONGTEXT NULL
    ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4`);
    const insert = `INSERT INTO edge (id, dec65, d, dt6, ts, tm, ubig, e, s, j, bl, bin, vbin, b1, b10, y, g, flag, txt, big)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ST_GeomFromText(?), ?, ?, ?)`;
    await admin.query(insert, [
      1,
      '12345678901234567890123456789012345.123456789012345678901234567890',
      '2024-02-29',
      '2024-02-29 23:59:59.123456',
      '2038-01-19 03:14:07',
      '838:59:59',
      '18446744073709551615',
      'large',
      'a,c',
      '{"k": [1, 2, {"x": null}], "s": "é\\ttab"}',
      ALL_BYTES,
      Buffer.from([0x00, 0xff, 0x0a, 0x01]),
      Buffer.from([0x09, 0x0d, 0x0a, 0x22, 0x2c, 0x00]),
      1,
      1023,
      2155,
      'POINT(1.5 -2.25)',
      1,
      AWKWARD_TEXT,
      bigText(),
    ]);
    await admin.query(insert, [
      2,
      '-0.000000000000000000000000000001',
      '0000-00-00',
      '0000-00-00 00:00:00',
      '0000-00-00 00:00:00',
      '-12:00:00',
      '0',
      'small',
      '',
      '[]',
      Buffer.alloc(0),
      Buffer.from([0, 0, 0, 0]),
      Buffer.alloc(0),
      0,
      0,
      0,
      'POINT(0 0)',
      0,
      '',
      '',
    ]);
    await admin.query('INSERT INTO edge (id) VALUES (3)');
    await admin.query(
      "INSERT INTO edge (id, dec65, d, dt6) VALUES (4, '-99999999999999999999999999999999999.999999999999999999999999999999', '2020-00-15', '1000-01-01 00:00:00.000001')",
    );
  } finally {
    await admin.end();
  }
}

/** 5 M characters of text with tabs, newlines and multi-byte characters all along. */
function bigText(): string {
  const line = 'línea\tcon tab, "comillas" y fin\n';
  return line.repeat(Math.ceil(BIG_TEXT_CHARS / line.length)).slice(0, BIG_TEXT_CHARS);
}

async function ingest(
  conn: Connection,
  source: SourceConnector,
  parallel: number,
): Promise<OdsIngestionResult> {
  const snapshot = await exploreSource(conn, DB, { sampleRows: 0, countRows: false });
  return ingestFresh({ projectId: 'proj-20261122-edgetypes', source, snapshot, parallel });
}

async function odsRows(result: OdsIngestionResult, sql: string): Promise<Record<string, unknown>[]> {
  // BIGINT results arrive as bigint: plain numbers when they fit, else text.
  return (await duckRows(result.database_file, sql)).map((row) =>
    Object.fromEntries(
      Object.entries(row).map(([k, v]) => [
        k,
        typeof v === 'bigint' ? (v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v.toString()) : v,
      ]),
    ),
  );
}

/** Every column rendered as text (bytes as hex), row by row: what two copies must agree on. */
const FINGERPRINT = `SELECT id, CAST(dec65 AS VARCHAR) dec65, CAST(d AS VARCHAR) d, CAST(dt6 AS VARCHAR) dt6,
  CAST(ts AS VARCHAR) ts, CAST(tm AS VARCHAR) tm, CAST(ubig AS VARCHAR) ubig, e, s, CAST(j AS VARCHAR) j,
  hex(bl) bl, hex(bin) bin, hex(vbin) vbin, b1, b10, y, g, flag, txt, md5(big) big
  FROM ods_edge ORDER BY id`;

describe('ODS ingestion of edge-case MySQL types', () => {
  let source: Connection;
  let result: OdsIngestionResult;
  let rows: Record<number, Record<string, unknown>>;

  beforeAll(async () => {
    await createSource();
    source = await connect(DB);
    result = await ingest(source, harnessSource(DB), 2);
    const read = await odsRows(
      result,
      `SELECT *, typeof(dec65) AS dec65_type, typeof(ubig) AS ubig_type, typeof(dt6) AS dt6_type,
              typeof(bl) AS bl_type, typeof(flag) AS flag_type, CAST(dec65 AS VARCHAR) AS dec65_text,
              CAST(ubig AS VARCHAR) AS ubig_text, CAST(dt6 AS VARCHAR) AS dt6_text, CAST(ts AS VARCHAR) AS ts_text,
              CAST(d AS VARCHAR) AS d_text, CAST(tm AS VARCHAR) AS tm_text, hex(bl) AS bl_hex, hex(bin) AS bin_hex,
              hex(vbin) AS vbin_hex, octet_length(bl) AS bl_len, md5(big) AS big_md5, length(big) AS big_len
         FROM ods_edge ORDER BY id`,
    );
    rows = Object.fromEntries(read.map((r) => [Number(r.id), r]));
  });
  afterAll(async () => {
    await source?.end();
  });

  async function sourceText(sql: string): Promise<Record<string, unknown>> {
    const [r] = await source.query<RowDataPacket[]>(sql);
    return r[0];
  }

  it('copies every row and reconciles the counts', () => {
    expect(result.tables).toHaveLength(1);
    expect(result.tables[0]).toMatchObject({ table: 'edge', source_rows: 4, ods_rows: 4 });
    expect(Object.keys(rows)).toHaveLength(4);
  });

  it('keeps DECIMAL(65,30) exact (as text: DuckDB decimals stop at 38 digits)', async () => {
    const src = await sourceText('SELECT CAST(dec65 AS CHAR) AS a FROM edge WHERE id = 1');
    expect(rows[1].dec65_type).toBe('VARCHAR');
    expect(rows[1].dec65_text).toBe(src.a);
    expect(rows[1].dec65_text).toBe('12345678901234567890123456789012345.123456789012345678901234567890');
    expect(rows[2].dec65_text).toBe('-0.000000000000000000000000000001');
    expect(rows[4].dec65_text).toBe('-99999999999999999999999999999999999.999999999999999999999999999999');
  });

  it('maps dates and times exactly, and zero or impossible ones to NULL with a warning', () => {
    expect(rows[1].d_text).toBe('2024-02-29');
    expect(rows[1].dt6_type).toBe('TIMESTAMP');
    expect(rows[1].dt6_text).toBe('2024-02-29 23:59:59.123456');
    expect(rows[4].dt6_text).toBe('1000-01-01 00:00:00.000001');
    expect(rows[1].ts_text).toBe('2038-01-19 03:14:07');
    for (const column of ['d_text', 'dt6_text', 'ts_text']) expect(rows[2][column]).toBeNull();
    expect(rows[4].d_text).toBeNull(); // 2020-00-15
    // TIME beyond a day or negative does not fit a warehouse TIME.
    expect(rows[1].tm_text).toBeNull();
    expect(rows[2].tm_text).toBeNull();
    expect(result.warnings).toEqual(
      expect.arrayContaining([
        'edge.d: 2 zero or invalid dates stored as NULL',
        'edge.dt6: 1 zero or invalid dates stored as NULL',
        'edge.ts: 1 zero or invalid dates stored as NULL',
        'edge.tm: 2 times outside 00:00:00-24:00:00 stored as NULL',
      ]),
    );
    expect(result.warnings).toHaveLength(4);
  });

  it('keeps BIGINT UNSIGNED max, ENUM, SET, JSON, BIT, YEAR, booleans and spatial values', () => {
    expect(rows[1]).toMatchObject({
      ubig_type: 'UBIGINT',
      ubig_text: '18446744073709551615',
      e: 'large',
      s: 'a,c',
      j: '{"k": [1, 2, {"x": null}], "s": "é\\ttab"}',
      b1: 1,
      b10: 1023,
      y: 2155,
      g: 'POINT(1.5 -2.25)',
      flag: true,
      flag_type: 'BOOLEAN',
    });
    expect(rows[2]).toMatchObject({ ubig_text: '0', e: 'small', s: '', j: '[]', b1: 0, b10: 0, y: 0 });
    expect(rows[2]).toMatchObject({ g: 'POINT(0 0)', flag: false });
  });

  it('keeps bytes exactly (BLOB, BINARY padding, VARBINARY, empty is not NULL)', async () => {
    const src = await sourceText(
      'SELECT HEX(bl) AS bl, HEX(bin) AS bin, HEX(vbin) AS vbin FROM edge WHERE id = 1',
    );
    expect(rows[1].bl_type).toBe('BLOB');
    expect(rows[1].bl_len).toBe(256);
    expect(rows[1].bl_hex).toBe(src.bl);
    expect(rows[1].bl_hex).toBe(ALL_BYTES.toString('hex').toUpperCase());
    expect(rows[1].bin_hex).toBe('00FF0A01');
    expect(rows[1].vbin_hex).toBe(src.vbin);
    expect(rows[1].vbin_hex).toBe('090D0A222C00');
    expect(rows[2]).toMatchObject({ bl_len: 0, bin_hex: '00000000', vbin_hex: '' });
  });

  it('keeps text with separators, quotes and emoji, a 5 MB LONGTEXT, and empty strings apart from NULL', async () => {
    expect(rows[1].txt).toBe(AWKWARD_TEXT);
    expect(rows[2].txt).toBe('');
    const src = await sourceText('SELECT MD5(big) AS m, CHAR_LENGTH(big) AS n FROM edge WHERE id = 1');
    expect(rows[1].big_len).toBe(BIG_TEXT_CHARS);
    expect(Number(src.n)).toBe(BIG_TEXT_CHARS);
    expect(rows[1].big_md5).toBe(src.m);
    expect(rows[2].big_md5).toBe('d41d8cd98f00b204e9800998ecf8427e');
  });

  it('stores NULL in every column of an all-NULL row', () => {
    const { id, ...rest } = rows[3];
    expect(id).toBe(3);
    const columns = Object.keys(rest).filter((k) => !k.endsWith('_type'));
    expect(columns.length).toBeGreaterThan(20);
    for (const k of columns) expect([k, rest[k]]).toEqual([k, null]);
  });

  it('gives a SELECT-only user (one reader, no shared snapshot) the very same values', async () => {
    const reader = await connect(DB, { user: READ_ONLY_USER, password: READ_ONLY_PASSWORD });
    try {
      const alone = await ingest(reader, harnessSource(DB, READ_ONLY_USER, READ_ONLY_PASSWORD), 2);
      expect(alone.readers).toBe(1);
      expect(result.readers).toBe(2);
      expect(await odsRows(alone, FINGERPRINT)).toEqual(await odsRows(result, FINGERPRINT));
      expect(alone.warnings).toEqual(result.warnings);
    } finally {
      await reader.end();
    }
  });
});

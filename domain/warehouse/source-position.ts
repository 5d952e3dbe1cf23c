/**
 * The source server's write position: where its binary log stands. Two reads that return the same
 * position saw no commit in between, which is how a copy read in several snapshots (resumed, or split
 * over workers) can still tell that it holds one point in time (docs/fleet.md#one-snapshot-rule).
 */
import type { Connection, RowDataPacket } from 'mysql2/promise';

/** The position read just before a snapshot started and just after (null: not readable here). */
export interface SnapshotPosition {
  before: string | null;
  after: string | null;
}

/** The snapshot a table (or part of one) was read in. */
export interface SnapshotRef {
  /** Tables read under the same id were read in one snapshot. */
  id: string;
  position: SnapshotPosition;
}

/**
 * MariaDB's GTID position, else MySQL's executed GTID set, else the binary log file and offset
 * (which needs a replication privilege). Null when the server keeps no binary log or none of these
 * can be read by this user.
 */
export async function sourceWritePosition(conn: Connection): Promise<string | null> {
  for (const variable of ['gtid_binlog_pos', 'gtid_executed']) {
    try {
      const [rows] = await conn.query<RowDataPacket[]>(`SELECT @@global.${variable} AS p`);
      const p = rows[0]?.p as string | null | undefined;
      if (p) return `gtid:${String(p).replace(/\s+/g, '')}`;
    } catch {
      // The other server kind's variable: try the next.
    }
  }
  for (const statement of ['SHOW BINARY LOG STATUS', 'SHOW MASTER STATUS']) {
    try {
      const [rows] = await conn.query<RowDataPacket[]>(statement);
      const r = rows[0] as { File?: string; Position?: number } | undefined;
      if (r?.File) return `binlog:${r.File}:${r.Position}`;
      if (rows.length === 0) return null;
    } catch {
      // Unknown statement on this version, or no privilege to run it.
    }
  }
  return null;
}

/**
 * MariaDB's exact position of the snapshot open on `conn` (`binlog_snapshot_file` and `_position`,
 * read inside the transaction: the binary log position the snapshot's data corresponds to). Null on
 * other servers or without a binary log; then the position read around the snapshot's start stands,
 * which a commit written to the log but not yet visible could fool (docs/fleet.md#one-snapshot-rule).
 */
export async function snapshotBinlogPosition(conn: Connection): Promise<string | null> {
  try {
    const [rows] = await conn.query<RowDataPacket[]>("SHOW STATUS LIKE 'binlog_snapshot_%'");
    const value = (name: string) =>
      (rows as { Variable_name: string; Value: string }[]).find((r) => r.Variable_name.toLowerCase() === name)
        ?.Value;
    const file = value('binlog_snapshot_file');
    return file ? `binlog:${file}:${value('binlog_snapshot_position')}` : null;
  } catch {
    return null;
  }
}

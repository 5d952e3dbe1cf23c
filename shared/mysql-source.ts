/**
 * A project's MySQL source as one value: its JDBC URL parsed once, at the edge (the create request),
 * and carried typed in the workflow input with the password only as its parameter-store reference.
 * Plain data and pure functions: workflows import this.
 */

/** Where a MySQL source is. */
export interface MysqlTarget {
  host: string;
  port: number;
  database: string;
  options: Record<string, string>;
}

export class JdbcUrlError extends Error {}

const PATTERN = /^jdbc:mysql:\/\/([^/:?#\s]+|\[[0-9a-fA-F:]+\])(?::(\d{1,5}))?\/([^/?#\s]+)(?:\?([^#\s]*))?$/;

/** Parses `jdbc:mysql://host:port/database?options` (docs/requirements.md#create-request). */
export function parseJdbcUrl(url: string): MysqlTarget {
  const m = PATTERN.exec(url.trim());
  if (!m) throw new JdbcUrlError('expected jdbc:mysql://<host>:<port>/<database>?<options>');
  const port = m[2] ? Number(m[2]) : 3306;
  if (port < 1 || port > 65535) throw new JdbcUrlError(`port ${port} is out of range 1-65535`);
  const options: Record<string, string> = {};
  for (const pair of (m[4] ?? '').split('&').filter(Boolean)) {
    const [k, v = ''] = pair.split('=');
    options[decodeURIComponent(k)] = decodeURIComponent(v);
  }
  return { host: m[1].replace(/^\[|\]$/g, ''), port, database: decodeURIComponent(m[3]), options };
}

/** The source of a project as the workflow carries it. */
export interface ProjectSource {
  /** As the user gave it, for display. */
  jdbc_url: string;
  username: string;
  /** The password's reference in the parameter store; never the password. */
  password_ref: string;
  /** `jdbc_url` parsed at the edge. Absent in inputs recorded before it was carried. */
  target?: MysqlTarget;
}

/** The source's target: as parsed at the edge, or parsed now for an input recorded before that. */
export function sourceTarget(source: Pick<ProjectSource, 'jdbc_url' | 'target'>): MysqlTarget {
  return source.target ?? parseJdbcUrl(source.jdbc_url);
}

/** `host:port/database`, for messages (no options, no credentials). */
export function describeTarget(target: MysqlTarget): string {
  const host = target.host.includes(':') ? `[${target.host}]` : target.host;
  return `${host}:${target.port}/${target.database}`;
}

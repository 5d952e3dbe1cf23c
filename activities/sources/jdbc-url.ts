/** Parses `jdbc:mysql://host:port/database?options` (docs/requirements.md#create-request) into connection settings. */

export interface MysqlTarget {
  host: string;
  port: number;
  database: string;
  options: Record<string, string>;
}

export class JdbcUrlError extends Error {}

const PATTERN = /^jdbc:mysql:\/\/([^/:?#\s]+|\[[0-9a-fA-F:]+\])(?::(\d{1,5}))?\/([^/?#\s]+)(?:\?([^#\s]*))?$/;

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

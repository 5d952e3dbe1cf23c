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

/** A TCP port, 1-65535, as the URL pattern accepts it. */
const PORT = '(?:6553[0-5]|655[0-2][0-9]|65[0-4][0-9]{2}|6[0-4][0-9]{3}|[1-5][0-9]{4}|[1-9][0-9]{0,3})';

/**
 * `jdbc:mysql://<host>[:<port>]/<database>[?<options>]`, the whole rule: the create request's schema
 * states it in the OpenAPI document, so every URL it allows is one this module can parse.
 */
export const JDBC_URL_PATTERN = new RegExp(
  `^jdbc:mysql://([^/:?#\\s]+|\\[[0-9a-fA-F:]+\\])(?::(${PORT}))?/([^/?#\\s]+)(?:\\?([^#\\s]*))?$`,
);

/** `%xx` sequences decoded; a malformed one is kept as written rather than refused. */
function decode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** Parses `jdbc:mysql://host:port/database?options` (docs/requirements.md#create-request). */
export function parseJdbcUrl(url: string): MysqlTarget {
  const m = JDBC_URL_PATTERN.exec(url.trim());
  if (!m) throw new JdbcUrlError('expected jdbc:mysql://<host>:<port>/<database>?<options> (port 1-65535)');
  const options: Record<string, string> = {};
  for (const pair of (m[4] ?? '').split('&').filter(Boolean)) {
    const [k, v = ''] = pair.split('=');
    options[decode(k)] = decode(v);
  }
  return {
    host: m[1].replace(/^\[|\]$/g, ''),
    port: m[2] ? Number(m[2]) : 3306,
    database: decode(m[3]),
    options,
  };
}

/** The parameter-store name of a project's source password (`projects/<id>/db-password`). */
export const sourcePasswordName = (projectId: string): string => `projects/${projectId}/db-password`;

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

/** `host:port`, an IPv6 host in brackets, for messages. */
export function describeHost(target: Pick<MysqlTarget, 'host' | 'port'>): string {
  const host = target.host.includes(':') ? `[${target.host}]` : target.host;
  return `${host}:${target.port}`;
}

/** `host:port/database`, for messages (no options, no credentials). */
export function describeTarget(target: MysqlTarget): string {
  return `${describeHost(target)}/${target.database}`;
}

/**
 * plat's door to an OpenSearch cluster: the official client (`@opensearch-project/opensearch`: its
 * connection pool, retries of a dead connection, and AWS SigV4 signing for a managed domain) behind the
 * small surface plat's code speaks: JSON in and out, and errors carrying the cluster's own type and
 * reason (`resource_already_exists_exception`, ...) so callers tell "already there" from a failure and
 * users read OpenSearch's words. How plat reaches a cluster: docs/search-lifecycle.md#connecting.
 */
import type { Client } from '@opensearch-project/opensearch';

/**
 * The official client, loaded when plat first talks to a cluster rather than with this module: it
 * costs a process about 0.13 s of CPU, and most processes are never given a cluster.
 */
function officialClient(): typeof import('@opensearch-project/opensearch') {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('@opensearch-project/opensearch');
}

/** An error answer of the cluster. */
export class OpenSearchError extends Error {
  constructor(
    readonly status: number,
    /** OpenSearch's error type, e.g. `index_not_found_exception`; `http_<status>` when it gave none. */
    readonly type: string,
    readonly reason: string,
    readonly method: string,
    readonly path: string,
  ) {
    super(`${method} ${path}: ${status} ${type}: ${reason}`);
    this.name = 'OpenSearchError';
  }
}

/** The cluster could not be reached (refused, reset, timed out), after the client's retries. */
export class OpenSearchUnreachable extends Error {
  constructor(
    readonly method: string,
    readonly path: string,
    cause: string,
  ) {
    super(`${method} ${path}: the cluster could not be reached: ${cause}`);
    this.name = 'OpenSearchUnreachable';
  }
}

/** AWS credentials, as the AWS SDK's providers give them. */
export interface AwsCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
  expiration?: Date;
}

/** SigV4 signing of every request, for a managed domain (`es`) or a serverless collection (`aoss`). */
export interface AwsSigningOptions {
  region: string;
  service: 'es' | 'aoss';
  /** Where credentials come from; default the AWS SDK's chain (environment, profile, SSO, instance role). */
  credentials?: () => Promise<AwsCredentials>;
}

export interface OpenSearchClientOptions {
  /** The cluster's URL; user and password in it are used for basic auth and never shown. */
  url: string;
  /** Basic auth, when not in the URL. Never logged. */
  username?: string;
  password?: string;
  /** A bearer token, sent as `Authorization: Bearer …`. Never logged. */
  bearerToken?: string;
  /** Sign every request with AWS SigV4 instead. */
  aws?: AwsSigningOptions;
  /** Per request; default 30 s. */
  timeoutMs?: number;
  /** Retries of a request whose connection failed (the official client's own); default 3. */
  maxRetries?: number;
}

/** Methods whose repeat is harmless: a broken connection retries only these. */
const IDEMPOTENT = new Set(['GET', 'HEAD', 'PUT', 'DELETE']);

export class OpenSearchClient {
  private readonly base: string;
  private readonly client: Client;
  private readonly oneShot: Client;

  constructor(private readonly opts: OpenSearchClientOptions) {
    const url = new URL(opts.url);
    const username = opts.username ?? (url.username ? decodeURIComponent(url.username) : undefined);
    const password = opts.password ?? (url.password ? decodeURIComponent(url.password) : undefined);
    url.username = '';
    url.password = '';
    this.base = url.toString().replace(/\/+$/, '');
    const { Client } = officialClient();
    const make = (maxRetries: number) =>
      new Client({
        node: this.base,
        requestTimeout: opts.timeoutMs ?? 30_000,
        maxRetries,
        ...(opts.aws ? awsSigning(opts.aws) : {}),
        ...(!opts.aws && username !== undefined ? { auth: { username, password: password ?? '' } } : {}),
        ...(!opts.aws && opts.bearerToken
          ? { headers: { authorization: `Bearer ${opts.bearerToken}` } }
          : {}),
      });
    this.client = make(opts.maxRetries ?? 3);
    // A POST (rollover, bulk, search) is not repeated on a broken connection: it may have been applied.
    this.oneShot = make(0);
  }

  /** The cluster's base URL, without credentials. */
  get url(): string {
    return this.base;
  }

  /** The AWS service requests are signed for: `es` a managed domain, `aoss` a serverless collection. */
  get awsService(): 'es' | 'aoss' | undefined {
    return this.opts.aws?.service;
  }

  /** How requests are authenticated, for health answers: never the secret itself. */
  get authentication(): 'none' | 'basic' | 'bearer' | 'aws-sigv4' {
    if (this.opts.aws) return 'aws-sigv4';
    if (this.opts.bearerToken) return 'bearer';
    return this.opts.username || new URL(this.opts.url).username ? 'basic' : 'none';
  }

  /** The parsed JSON answer; a status ≥ 400 throws an OpenSearchError. */
  async request<T = Record<string, unknown>>(method: string, path: string, body?: unknown): Promise<T> {
    return this.send<T>(method, path, body === undefined ? {} : { body: body as Record<string, unknown> });
  }

  /** `POST /_bulk` with newline-delimited JSON (each line already serialised, ending in a newline). */
  async bulk<T = Record<string, unknown>>(ndjson: string, query = ''): Promise<T> {
    return this.send<T>('POST', `/_bulk${query ? `?${query}` : ''}`, { bulkBody: ndjson });
  }

  private async send<T>(
    method: string,
    path: string,
    payload: { body?: Record<string, unknown>; bulkBody?: string },
  ): Promise<T> {
    const at = path.indexOf('?');
    const pathname = at < 0 ? path : path.slice(0, at);
    const client = IDEMPOTENT.has(method.toUpperCase()) ? this.client : this.oneShot;
    try {
      const res = await client.transport.request({
        method: method.toUpperCase(),
        path: pathname.startsWith('/') ? pathname : `/${pathname}`,
        querystring: at < 0 ? '' : path.slice(at + 1),
        ...payload,
      });
      return res.body as T;
    } catch (err) {
      throw translated(err, method, path);
    }
  }

  /** The answer, or undefined when the cluster says 404 (no such index, template, alias or policy). */
  async getOrUndefined<T = Record<string, unknown>>(path: string): Promise<T | undefined> {
    try {
      return await this.request<T>('GET', path);
    } catch (err) {
      if (err instanceof OpenSearchError && err.status === 404) return undefined;
      throw err;
    }
  }

  /**
   * The plugins the cluster runs (`_cat/plugins`), each once. Asked before most lifecycle requests
   * (ISM or plat's engine?), and plugins change only with a node restart: kept for a minute.
   */
  plugins(): Promise<string[]> {
    if (!this.pluginList || Date.now() - this.pluginList.at > 60_000) {
      const list = this.request<{ component: string }[]>('GET', '/_cat/plugins?format=json').then((rows) => [
        ...new Set(rows.map((r) => r.component)),
      ]);
      // A failed read is not kept: the next call asks again.
      list.catch(() => (this.pluginList = undefined));
      this.pluginList = { at: Date.now(), list };
    }
    return this.pluginList.list;
  }

  private pluginList?: { at: number; list: Promise<string[]> };

  /** Closes the client's connections. */
  async close(): Promise<void> {
    await Promise.all([this.client.close(), this.oneShot.close()]);
  }
}

/** The official client's errors in plat's terms: the cluster's answer, or an unreachable cluster. */
function translated(err: unknown, method: string, path: string): Error {
  const { errors } = officialClient();
  if (err instanceof errors.ResponseError) {
    const status = err.meta.statusCode ?? 500;
    const body = err.meta.body as unknown;
    const error = (body as { error?: { type?: string; reason?: string } | string } | undefined)?.error;
    // An AWS front end answers `{"message": ...}` (a bad signature, a denied action).
    const message = (body as { message?: string; Message?: string } | undefined)?.message;
    const type = typeof error === 'object' && error?.type ? error.type : `http_${status}`;
    const reason =
      typeof error === 'object' && error?.reason
        ? error.reason
        : typeof error === 'string'
          ? error
          : (message ??
            (body as { Message?: string } | undefined)?.Message ??
            (typeof body === 'string' ? body : JSON.stringify(body ?? '')).slice(0, 300));
    return new OpenSearchError(status, type, reason, method, path);
  }
  if (
    err instanceof errors.ConnectionError ||
    err instanceof errors.TimeoutError ||
    err instanceof errors.NoLivingConnectionsError
  )
    return new OpenSearchUnreachable(method, path, err.message);
  return err instanceof Error ? err : new Error(String(err));
}

/** The official client's SigV4 signer (its aws-v3 entry, loaded only for a signed cluster). */
function awsSigning(aws: AwsSigningOptions) {
  type Signers = typeof import('@opensearch-project/opensearch/aws-v3');
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { AwsSigv4Signer } = require('@opensearch-project/opensearch/aws-v3') as Signers;
  return AwsSigv4Signer({
    region: aws.region,
    service: aws.service,
    getCredentials: aws.credentials ?? defaultCredentials(),
  });
}

/** The AWS SDK's default credential chain, loaded only when a cluster is signed for. */
function defaultCredentials(): () => Promise<AwsCredentials> {
  let provider: (() => Promise<AwsCredentials>) | undefined;
  return async () => {
    if (!provider) {
      const { defaultProvider } = await import('@aws-sdk/credential-provider-node');
      provider = defaultProvider();
    }
    return provider();
  };
}

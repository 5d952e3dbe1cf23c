/**
 * A small OpenSearch REST client: JSON in and out, errors carrying the cluster's own type and reason
 * (`resource_already_exists_exception`, ...), so callers can tell "already there" from a failure and
 * users read OpenSearch's words.
 */

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

export interface OpenSearchClientOptions {
  url: string;
  /** `Authorization` header value (basic or bearer), when the cluster needs one. Never logged. */
  authorization?: string;
  timeoutMs?: number;
}

export class OpenSearchClient {
  private readonly base: string;

  constructor(private readonly opts: OpenSearchClientOptions) {
    this.base = opts.url.replace(/\/+$/, '');
  }

  /** The cluster's base URL. */
  get url(): string {
    return this.base;
  }

  /** The parsed JSON answer; a status ≥ 400 throws an OpenSearchError. */
  async request<T = Record<string, unknown>>(method: string, path: string, body?: unknown): Promise<T> {
    return this.send<T>(
      method,
      path,
      body === undefined ? undefined : JSON.stringify(body),
      'application/json',
    );
  }

  /** `POST /_bulk` with newline-delimited JSON (each line already serialised, ending in a newline). */
  async bulk<T = Record<string, unknown>>(ndjson: string, query = ''): Promise<T> {
    return this.send<T>('POST', `/_bulk${query ? `?${query}` : ''}`, ndjson, 'application/x-ndjson');
  }

  private async send<T>(
    method: string,
    path: string,
    body: string | undefined,
    contentType: string,
  ): Promise<T> {
    const res = await fetch(`${this.base}${path.startsWith('/') ? path : `/${path}`}`, {
      method,
      headers: {
        ...(body === undefined ? {} : { 'content-type': contentType }),
        ...(this.opts.authorization ? { authorization: this.opts.authorization } : {}),
      },
      body,
      signal: AbortSignal.timeout(this.opts.timeoutMs ?? 30_000),
    });
    const text = await res.text();
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = text;
    }
    if (res.status >= 400) {
      const error = (json as { error?: { type?: string; reason?: string } | string })?.error;
      const type = typeof error === 'object' && error?.type ? error.type : `http_${res.status}`;
      const reason =
        typeof error === 'object' && error?.reason
          ? error.reason
          : typeof error === 'string'
            ? error
            : text.slice(0, 300);
      throw new OpenSearchError(res.status, type, reason, method, path);
    }
    return json as T;
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
}

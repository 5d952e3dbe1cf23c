/** A bare JSON caller for the harness's own requests to a test OpenSearch node. */

/** Calls `method path` on the node at `url`; throws on an error answer (404 too unless `missingOk`). */
export type OpenSearchCall = <T = unknown>(
  method: string,
  route: string,
  body?: unknown,
  opts?: { missingOk?: boolean },
) => Promise<T | undefined>;

/** A caller for the node at `url`. */
export function openSearchCall(url: string): OpenSearchCall {
  return async <T>(method: string, route: string, body?: unknown, opts: { missingOk?: boolean } = {}) => {
    const res = await fetch(`${url}${route}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(60_000),
    });
    const text = await res.text();
    if (res.status === 404 && opts.missingOk) return undefined;
    if (!res.ok) throw new Error(`${method} ${route} on ${url}: ${res.status} ${text.slice(0, 500)}`);
    return (text ? JSON.parse(text) : undefined) as T;
  };
}

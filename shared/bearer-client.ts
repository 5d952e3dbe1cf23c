/**
 * A service's typed client (docs/architecture.md#one-contract-per-service): openapi-fetch over the
 * generated `paths` of its OpenAPI document, sending a bearer credential when there is one, with a
 * network failure turned into the caller's own error (the CLI's message, the pipelines' retry).
 */
import createClient, { type Client } from 'openapi-fetch';

export type TypedClient<Paths extends object> = Client<Paths, 'application/json'>;

/** What every call of a typed client resolves to: the body of a 2xx, or the error body. */
export interface CallResult<D> {
  data?: D;
  error?: unknown;
  response: Response;
}

export function bearerClient<Paths extends object>(
  baseUrl: string,
  token: string | undefined,
  unreachable: (err: Error) => Error,
): TypedClient<Paths> {
  return createClient<Paths, 'application/json'>({
    baseUrl,
    headers: token ? { authorization: `Bearer ${token}` } : {},
    fetch: async (request: Request) => {
      try {
        return await fetch(request);
      } catch (err) {
        throw unreachable(err as Error);
      }
    },
  });
}

/**
 * The memory service's public API as the pipelines call it (they never touch its store), typed by
 * the service's OpenAPI document (docs/architecture.md#one-contract-per-service). A 4xx answer is not
 * retried (the request itself is wrong); anything else is, by Temporal.
 */
import { ApplicationFailure } from '@temporalio/activity';
import { bearerClient, type CallResult, type TypedClient } from '../../shared/bearer-client';
import type { paths } from '../../shared/generated/memory-api';

/** What the pipelines add: the add operation's body. */
export type AddBody = NonNullable<paths['/memory/add']['post']['requestBody']>['content']['application/json'];

export class MemoryClient {
  private readonly http: TypedClient<paths>;

  constructor(
    readonly baseUrl: string,
    apiKey?: string,
  ) {
    this.http = bearerClient<paths>(
      baseUrl,
      apiKey,
      (err) =>
        new Error(`memory service unreachable at ${baseUrl}: ${err.cause ?? err.message}`, { cause: err }),
    );
  }

  add(body: AddBody) {
    return answer('POST /memory/add', this.http.POST('/memory/add', { body }));
  }

  list(query: { user_id: string; agent_id?: string }) {
    return answer(
      'GET /memory/list',
      this.http.GET('/memory/list', { params: { query: { ...query, limit: 10_000 } } }),
    );
  }

  /** The memory, or undefined when it does not exist (404). */
  async get(id: string) {
    return answer(`GET /memory/${id}`, this.http.GET('/memory/{id}', { params: { path: { id } } })).catch(
      (err: unknown) => {
        if (err instanceof ApplicationFailure && err.type === 'MemoryNotFound') return undefined;
        throw err;
      },
    );
  }

  /** Deletes a memory; one already gone counts as deleted. */
  async delete(id: string): Promise<void> {
    await answer(
      `DELETE /memory/${id}`,
      this.http.DELETE('/memory/{id}', { params: { path: { id } } }),
    ).catch((err: unknown) => {
      if (err instanceof ApplicationFailure && err.type === 'MemoryNotFound') return;
      throw err;
    });
  }
}

/** The 2xx body of `call`; a 404 or another refusal fails for good, anything else is retried. */
async function answer<D>(what: string, call: Promise<CallResult<D>>): Promise<NonNullable<D>> {
  const { data, error, response } = await call;
  if (response.ok) return data as NonNullable<D>;
  const message = `${what} answered ${response.status}: ${JSON.stringify(error ?? null).slice(0, 300)}`;
  if (response.status === 404) throw ApplicationFailure.nonRetryable(message, 'MemoryNotFound');
  if (response.status >= 400 && response.status < 500 && response.status !== 429)
    throw ApplicationFailure.nonRetryable(message, 'MemoryRequestRejected');
  throw new Error(message);
}

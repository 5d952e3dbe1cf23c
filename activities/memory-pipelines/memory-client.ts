/**
 * The memory service's public API as the pipelines call it (they never touch its store). A 4xx
 * answer is not retried (the request itself is wrong); anything else is, by Temporal.
 */
import { ApplicationFailure } from '@temporalio/activity';
import type { MemoryAddResult, MemoryRecord, TokenUsage } from '../../shared/memory-model';
import type { AddMemoryRequest } from '../../shared/memory-requests';

export type AddBody = Omit<Partial<AddMemoryRequest>, 'user_id'> & { user_id: string };

export class MemoryClient {
  constructor(
    readonly baseUrl: string,
    private readonly apiKey?: string,
  ) {}

  add(
    body: AddBody,
  ): Promise<{ results: MemoryAddResult[]; token_usage: TokenUsage; idempotent_replay?: boolean }> {
    return this.call('POST', '/memory/add', body);
  }

  list(query: { user_id: string; agent_id?: string }): Promise<{ results: MemoryRecord[] }> {
    const qs = new URLSearchParams({ ...query, limit: '10000' });
    return this.call('GET', `/memory/list?${qs}`);
  }

  /** The memory, or undefined when it does not exist (404). */
  async get(id: string): Promise<MemoryRecord | undefined> {
    return this.call<MemoryRecord>('GET', `/memory/${encodeURIComponent(id)}`).catch((err: unknown) => {
      if (err instanceof ApplicationFailure && err.type === 'MemoryNotFound') return undefined;
      throw err;
    });
  }

  /** Deletes a memory; one already gone counts as deleted. */
  async delete(id: string): Promise<void> {
    await this.call('DELETE', `/memory/${encodeURIComponent(id)}`).catch((err: unknown) => {
      if (err instanceof ApplicationFailure && err.type === 'MemoryNotFound') return;
      throw err;
    });
  }

  private async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    let res: Response;
    try {
      res = await fetch(`${this.baseUrl}${path}`, {
        method,
        headers: {
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...(this.apiKey ? { authorization: `Bearer ${this.apiKey}` } : {}),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch (err) {
      throw new Error(
        `memory service unreachable at ${this.baseUrl}: ${(err as Error).cause ?? (err as Error).message}`,
        { cause: err },
      );
    }
    const text = await res.text();
    if (res.ok) return JSON.parse(text) as T;
    const message = `${method} ${path} answered ${res.status}: ${text.slice(0, 300)}`;
    if (res.status === 404) throw ApplicationFailure.nonRetryable(message, 'MemoryNotFound');
    if (res.status >= 400 && res.status < 500 && res.status !== 429)
      throw ApplicationFailure.nonRetryable(message, 'MemoryRequestRejected');
    throw new Error(message);
  }
}

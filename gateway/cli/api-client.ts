/** The CLI's clients of the platform API and the memory service: base URL, stored token, error format. */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { paths as MemoryPaths } from '../../shared/generated/memory-api';
import { bearerClient, type CallResult, type TypedClient } from '../../shared/bearer-client';
import type { paths as PlatformPaths } from '../../shared/generated/platform-api';
import { HttpError } from '../http-errors';

/**
 * The platform's error format as the CLI got it back (or a usage error, status 2; an unreachable
 * service, status 0): the same fields the gateway answers with (gateway/http-errors.ts).
 */
export class ApiError extends HttpError {}

/** The gateway the CLI talks to: --url, else PLAT_URL, else the local default. */
export function gatewayUrl(flag?: string): string {
  return (flag ?? process.env.PLAT_URL ?? 'http://127.0.0.1:8080').replace(/\/$/, '');
}

/** Where `plat login` keeps tokens, per gateway URL (mode 0600). */
export function credentialsFile(): string {
  return process.env.PLAT_CREDENTIALS_FILE ?? path.join(os.homedir(), '.config', 'plat', 'credentials.json');
}

export function saveToken(baseUrl: string, token: string): void {
  const file = credentialsFile();
  const all = readAll();
  all[baseUrl] = token;
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  fs.writeFileSync(file, JSON.stringify(all, null, 2), { mode: 0o600 });
}

export function loadToken(baseUrl: string): string | undefined {
  return process.env.PLAT_TOKEN ?? readAll()[baseUrl];
}

function readAll(): Record<string, string> {
  try {
    return JSON.parse(fs.readFileSync(credentialsFile(), 'utf8')) as Record<string, string>;
  } catch {
    return {};
  }
}

/**
 * A service's typed client (docs/architecture.md#one-contract-per-service): the generated `paths` of
 * its OpenAPI document over openapi-fetch, with the bearer credential when there is one. A service
 * that cannot be reached is an `ApiError` with status 0 that says so.
 */
export class ApiClient<Paths extends object> {
  readonly http: TypedClient<Paths>;

  constructor(
    readonly baseUrl: string,
    token?: string,
  ) {
    this.http = bearerClient<Paths>(
      baseUrl,
      token,
      (err) =>
        new ApiError(
          0,
          'unreachable',
          `cannot reach ${baseUrl} (${err.message}); is plat running (npm start)?`,
        ),
    );
  }
}

/** The platform gateway's client. */
export const platformClient = (baseUrl: string, token?: string) =>
  new ApiClient<PlatformPaths>(baseUrl, token);
export type PlatformClient = ApiClient<PlatformPaths>;

/** The gateway's client at `url` (see `gatewayUrl`), signed in with the token `plat login` kept for it. */
export function signedInClient(url?: string): PlatformClient {
  const baseUrl = gatewayUrl(url);
  return platformClient(baseUrl, loadToken(baseUrl));
}

/** The memory service's client (the key is PLAT_MEMORY_API_KEY, when the service has keys). */
export const memoryClient = (baseUrl: string, key?: string) => new ApiClient<MemoryPaths>(baseUrl, key);
export type MemoryClient = ApiClient<MemoryPaths>;

/** The 2xx body of `call`, or an `ApiError` from the service's `{"error": {code, message, details}}`. */
export async function ok<R extends CallResult<unknown>>(call: Promise<R>): Promise<NonNullable<R['data']>> {
  const { data, error, response } = await call;
  if (!response.ok) {
    const e =
      (error as { error?: { code?: string; message?: string; details?: unknown } } | undefined)?.error ?? {};
    const hint = response.status === 401 ? ' (run `plat login`)' : '';
    throw new ApiError(
      response.status,
      e.code ?? 'error',
      `${e.message ?? response.statusText}${hint}`,
      e.details,
    );
  }
  // An empty 2xx body reads as {}, as every command prints some JSON.
  return (data ?? {}) as NonNullable<R['data']>;
}

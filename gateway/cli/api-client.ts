/** The CLI's HTTP client for the platform API: base URL, stored token, error format. */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
  }
}

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

export class ApiClient {
  constructor(
    readonly baseUrl: string,
    private readonly token?: string,
  ) {}

  async request<T>(method: string, route: string, body?: unknown): Promise<T> {
    let res: Response;
    try {
      res = await fetch(`${this.baseUrl}${route}`, {
        method,
        headers: {
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...(this.token ? { authorization: `Bearer ${this.token}` } : {}),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch (err) {
      throw new ApiError(
        0,
        'unreachable',
        `cannot reach ${this.baseUrl} (${(err as Error).message}); is plat running (npm start)?`,
      );
    }
    const text = await res.text();
    const parsed = text ? (JSON.parse(text) as unknown) : {};
    if (!res.ok) {
      const e = (parsed as { error?: { code?: string; message?: string; details?: unknown } }).error ?? {};
      const hint = res.status === 401 ? ' (run `plat login`)' : '';
      throw new ApiError(res.status, e.code ?? 'error', `${e.message ?? res.statusText}${hint}`, e.details);
    }
    return parsed as T;
  }
}

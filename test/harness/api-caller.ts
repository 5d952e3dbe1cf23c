/** A JSON caller for the platform API, as a client would use it. */
export interface ApiResponse {
  status: number;
  body: Record<string, unknown>;
}

export type ApiCall = (
  method: string,
  route: string,
  body?: unknown,
  bearer?: string,
) => Promise<ApiResponse>;

/** `base` may be a function so the caller can be made before the server is up. */
export function apiCaller(base: string | (() => string)): ApiCall {
  return async (method, route, body, bearer) => {
    const res = await fetch(`${typeof base === 'function' ? base() : base}${route}`, {
      method,
      headers: {
        'content-type': 'application/json',
        ...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : {}) as Record<string, unknown> };
  };
}

/** Signs `username` up through `call`'s gateway and answers the ID token it issues. */
export async function signUp(call: ApiCall, username: string, password: string): Promise<string> {
  return (await call('POST', '/auth/signup', { username, password })).body.id_token as string;
}

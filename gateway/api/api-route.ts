/**
 * One description of each HTTP operation, used three ways: Express routes that validate with its zod
 * schemas, the OpenAPI document generated from the same schemas (docs/architecture.md#api-contracts),
 * and 405 answers for methods a path does not serve. Request and response schemas are zod, so what
 * the document promises is what the code checks.
 */
import type { Request, RequestHandler, Response } from 'express';
import type { z } from 'zod';

export type HttpMethod = 'get' | 'post' | 'put' | 'delete';

/** The role an operation needs; a tenant is any signed-in user. */
export type RouteRole = 'tenant' | 'operator';

/** A response an operation gives: its description and, for JSON bodies, its schema. */
export interface ApiResponse {
  description: string;
  schema?: z.ZodType;
}

/** An OpenAPI link: how a value in this operation's response feeds another operation. */
export interface ApiLink {
  /** The status whose response carries the value. */
  status: number;
  name: string;
  operationId: string;
  parameters?: Record<string, string>;
  requestBody?: unknown;
}

/** What a handler gets: the validated parts of the request. */
export interface ApiInput<P, Q, B> {
  params: P;
  query: Q;
  body: B;
  req: Request;
  res: Response;
}

export interface ApiRoute<
  P extends z.ZodType = z.ZodType,
  Q extends z.ZodType = z.ZodType,
  B extends z.ZodType = z.ZodType,
> {
  operationId: string;
  method: HttpMethod;
  /** OpenAPI form: `/memory/{id}`. */
  path: string;
  summary: string;
  /** False for operations that need no credentials whatever the service's security. */
  secured?: boolean;
  /**
   * Who may call a secured operation: any signed-in user (`tenant`, the default) or only an
   * `operator`. Mounting applies it (403 otherwise) and the document declares it.
   */
  role?: RouteRole;
  params?: P;
  query?: Q;
  body?: B;
  /** The body is optional (an empty request is valid). */
  bodyOptional?: boolean;
  /** Every status the operation answers with, besides the common errors added for it. */
  responses: Record<number, ApiResponse>;
  links?: ApiLink[];
  /** Middleware run after authentication and before validation (e.g. a rate limit). */
  before?: RequestHandler[];
  /** Answers the validated request: the body of the first 2xx response, sent as JSON. */
  handle(input: ApiInput<z.output<P>, z.output<Q>, z.output<B>>): unknown;
}

/** Declares a route with its schemas' types flowing into the handler. */
export function apiRoute<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType>(
  route: ApiRoute<P, Q, B>,
): ApiRoute {
  return route as unknown as ApiRoute;
}

/** `/memory/{id}` → `/memory/:id`. */
export const expressPath = (path: string): string => path.replace(/\{(\w+)\}/g, ':$1');

/** The status a successful answer is sent with: the route's first 2xx. */
export function successStatus(route: ApiRoute): number {
  return Number(Object.keys(route.responses).find((s) => Number(s) >= 200 && Number(s) < 300) ?? 200);
}

/** The paths and the methods each serves, for 405 answers. */
export function methodsByPath(routes: ApiRoute[]): Map<string, HttpMethod[]> {
  const byPath = new Map<string, HttpMethod[]>();
  for (const r of routes) byPath.set(r.path, [...(byPath.get(r.path) ?? []), r.method]);
  return byPath;
}

/**
 * The OpenAPI 3.1 document of a service, generated from its ApiRoutes: parameters, request bodies and
 * responses from the same zod schemas the routes validate with, security as the service really
 * applies it, links for clients (and property-based testers) that follow created resources.
 */
import { z } from 'zod';
import type { ApiRoute } from './api-route';
import { documentedQueryInteger } from './query-integer';

export interface OpenApiOptions {
  title: string;
  version: string;
  description: string;
  serverUrl: string;
  /**
   * The scheme secured operations require, or undefined when the service is running without one
   * (the memory service on loopback without keys): then no operation declares security.
   */
  security?: { name: string; scheme: Record<string, unknown> };
  /**
   * Schemas named in `components`; a route using one of these very schemas refers to it by name.
   * Named schemas are written as responses (output), so use them for bodies whose input and output agree.
   */
  schemas?: Record<string, z.ZodType>;
}

type JsonSchema = Record<string, unknown>;

/** A zod schema as JSON Schema (request side: what may be sent; response side: what comes back). */
export function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const out = z.toJSONSchema(schema, {
    io,
    unrepresentable: 'any',
    // A query integer is parsed from its digits, but it is an integer to whoever sends it.
    override: ({ zodSchema, jsonSchema }) => {
      const integer = documentedQueryInteger(zodSchema);
      if (!integer) return;
      for (const key of Object.keys(jsonSchema)) delete jsonSchema[key];
      Object.assign(jsonSchema, integer);
    },
  }) as JsonSchema;
  delete out.$schema; // embedded in the document, not a standalone schema
  return out;
}

const ERROR_SCHEMA: JsonSchema = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: { code: { type: 'string' }, message: { type: 'string' }, details: {} },
    },
  },
};

const COMMON_ERRORS: Record<number, string> = {
  400: 'invalid request: `error.details` names each field',
  401: 'missing or invalid credentials',
  403: 'this needs the operator role',
  404: 'no such resource',
  413: 'request body too large',
};

/** The parameters of a zod object schema, each with its own JSON Schema. */
function parameters(schema: z.ZodType | undefined, where: 'path' | 'query'): JsonSchema[] {
  if (!schema) return [];
  const object = jsonSchema(schema, 'input') as {
    properties?: Record<string, JsonSchema>;
    required?: string[];
  };
  return Object.entries(object.properties ?? {}).map(([name, s]) => ({
    name,
    in: where,
    required: where === 'path' || (object.required ?? []).includes(name),
    ...(typeof s.description === 'string' ? { description: s.description } : {}),
    schema: s,
  }));
}

/** A schema by reference when the document names it in `components`, else inline. */
function schemaOf(schema: z.ZodType, io: 'input' | 'output', opts: OpenApiOptions): JsonSchema {
  const named = Object.entries(opts.schemas ?? {}).find(([, s]) => s === schema)?.[0];
  return named ? { $ref: `#/components/schemas/${named}` } : jsonSchema(schema, io);
}

function operation(route: ApiRoute, opts: OpenApiOptions): JsonSchema {
  const secured = route.secured !== false && opts.security !== undefined;
  const responses: Record<string, JsonSchema> = {};
  const errors = new Set<number>(Object.keys(route.responses).map(Number));
  if (route.params || route.query || route.body) errors.add(400);
  if (route.body) errors.add(413);
  if (secured) errors.add(401);
  const operator = secured && route.role === 'operator';
  if (operator) errors.add(403);
  if (route.params) errors.add(404);
  for (const status of [...errors].sort((a, b) => a - b)) {
    const declared = route.responses[status];
    const schema = declared?.schema
      ? jsonSchema(declared.schema, 'output')
      : status >= 400
        ? ERROR_SCHEMA
        : undefined;
    const links = (route.links ?? []).filter((l) => l.status === status);
    responses[status] = {
      description: declared?.description ?? COMMON_ERRORS[status] ?? 'error',
      ...(schema ? { content: { 'application/json': { schema } } } : {}),
      ...(links.length
        ? {
            links: Object.fromEntries(
              links.map((l) => [
                l.name,
                {
                  operationId: l.operationId,
                  ...(l.parameters ? { parameters: l.parameters } : {}),
                  ...(l.requestBody ? { requestBody: l.requestBody } : {}),
                },
              ]),
            ),
          }
        : {}),
    };
  }
  return {
    operationId: route.operationId,
    summary: route.summary,
    security: secured ? [{ [opts.security!.name]: [] }] : [],
    // Who may call it, for clients and for the tests that hold tenants to 403.
    ...(operator ? { 'x-plat-role': 'operator' } : {}),
    parameters: [...parameters(route.params, 'path'), ...parameters(route.query, 'query')],
    ...(route.body
      ? {
          requestBody: {
            required: !route.bodyOptional,
            content: { 'application/json': { schema: schemaOf(route.body, 'input', opts) } },
          },
        }
      : {}),
    responses,
  };
}

export function openApiDocument(routes: ApiRoute[], opts: OpenApiOptions): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const route of routes) (paths[route.path] ??= {})[route.method] = operation(route, opts);
  return {
    openapi: '3.1.0',
    info: { title: opts.title, version: opts.version, description: opts.description },
    servers: [{ url: opts.serverUrl }],
    components: {
      ...(opts.security ? { securitySchemes: { [opts.security.name]: opts.security.scheme } } : {}),
      schemas: {
        Error: ERROR_SCHEMA,
        ...Object.fromEntries(
          Object.entries(opts.schemas ?? {}).map(([k, s]) => [k, jsonSchema(s, 'output')]),
        ),
      },
    },
    paths,
  };
}

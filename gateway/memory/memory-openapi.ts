/** The memory service's OpenAPI 3.1 document, generated from its routes (memory-routes.ts). */
import type { ApiRoute } from '../api/api-route';
import { openApiDocument } from '../api/openapi-document';

/** `keysRequired`: the service has API keys, so every operation but /health needs one. */
export function memoryOpenApi(routes: ApiRoute[], serverUrl: string, keysRequired: boolean) {
  return openApiDocument(routes, {
    title: 'plat memory service',
    version: '1.0.0',
    description:
      'Memories per user and agent: add with extraction, semantic search with the shared space and time decay. ' +
      (keysRequired
        ? 'Every operation but /health needs Authorization: Bearer <a key or a plat ID token>; an ID token acts for its own user only.'
        : 'This instance is bound to loopback without API keys: no credentials are needed (a plat ID token still confines its caller to its user).'),
    serverUrl,
    security: keysRequired ? { name: 'apiKey', scheme: { type: 'http', scheme: 'bearer' } } : undefined,
  });
}

/**
 * The two services' OpenAPI documents without a running service (docs/architecture.md#one-contract-per-service):
 * the same routes the apps serve, described with no dependencies behind them (describing a route
 * calls none of its handlers). The generated client types (`npm run api:types`) are written from these.
 */
import { memoryOpenApi } from './memory/memory-openapi';
import { memoryRoutes } from './memory/memory-routes';
import type { MemoryService } from '../domain/memory/memory-service';
import { platformOpenApi } from './openapi';
import { platformRoutes, type PlatformAppDeps } from './platform/platform-app';

/** Only the options a description reads; every service behind the routes is absent. */
const describedOnly = { selfSignup: false } as PlatformAppDeps;

/** The platform API's document, as `GET /openapi.json` serves it at `serverUrl`. */
export function platformDocument(serverUrl = 'http://127.0.0.1:8080') {
  const { open, projects, operated } = platformRoutes(describedOnly);
  return platformOpenApi([...open, ...projects, ...operated], serverUrl);
}

/** The memory service's document, as an instance with API keys serves it at `serverUrl`. */
export function memoryDocument(serverUrl = 'http://127.0.0.1:8230') {
  return memoryOpenApi(memoryRoutes({} as MemoryService), serverUrl, true);
}

/** The platform API's OpenAPI 3.1 document, generated from its routes (docs/architecture.md#api-contracts). */
import type { ApiRoute } from './api/api-route';
import { openApiDocument } from './api/openapi-document';
import { projectViewSchema } from './projects/project-responses';

export function platformOpenApi(routes: ApiRoute[], serverUrl: string) {
  return openApiDocument(routes, {
    title: 'plat platform API',
    version: '1.0.0',
    description:
      'Analysis projects on Temporal. Every /v1/projects path is also served without /v1 and under the ' +
      'optional stage prefix. Project routes need an ID token (POST /auth/login) as Authorization: Bearer <token>.',
    serverUrl,
    security: { name: 'idToken', scheme: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
    schemas: { Project: projectViewSchema },
  });
}

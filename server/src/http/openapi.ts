import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';

export const OPENAPI_UI_PATH = '/api/docs';

/**
 * The OpenAPI document is generated from the routes, which are generated from the contract:
 * nothing about the API is written twice. JSON at /api/docs/json, a browsable page at /api/docs.
 */
export async function registerOpenApi(app: FastifyInstance, version: string): Promise<void> {
  await app.register(fastifySwagger, {
    openapi: {
      info: {
        title: 'Photo Library API',
        version,
        description:
          'Every call of the product spec (§7). Send `Authorization: Bearer <token>` from /signin or /signup. ' +
          'Errors are JSON with a human-readable `message`.',
      },
      components: { securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(fastifySwaggerUi, { routePrefix: OPENAPI_UI_PATH, staticCSP: true });
}

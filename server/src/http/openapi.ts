import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import { TUS_METHODS, type TusMethodDoc } from '@photo/contract';
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
    // The tus endpoint is a protocol, not a JSON call: its routes are hidden and it is listed from the contract's description.
    transformObject: (document) =>
      'openapiObject' in document ? { ...document.openapiObject, paths: { ...document.openapiObject.paths, ...tusPaths() } } : document.swaggerObject,
  });
  await app.register(fastifySwaggerUi, { routePrefix: OPENAPI_UI_PATH, staticCSP: true });
}

/** The tus 1.0 endpoint (contract TUS_METHODS) as OpenAPI path items, so any tus client can find it. */
function tusPaths(): Record<string, Record<string, unknown>> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const doc of TUS_METHODS) {
    const item = (paths[doc.path] ??= doc.path.endsWith('{id}')
      ? { parameters: [{ name: 'id', in: 'path', required: true, description: 'The upload id from Location', schema: { type: 'string', pattern: '^[0-9a-f]{32}$' } }] }
      : {});
    item[doc.method.toLowerCase()] = tusOperation(doc);
  }
  return paths;
}

function tusOperation(doc: TusMethodDoc): Record<string, unknown> {
  return {
    summary: doc.summary,
    tags: ['uploads'],
    ...(doc.public ? {} : { security: [{ bearerAuth: [] }] }),
    parameters: Object.entries(doc.headers).map(([name, header]) => ({
      name,
      in: 'header',
      required: header.required ?? false,
      description: header.description,
      schema: { type: 'string' },
    })),
    ...(doc.body
      ? { requestBody: { description: doc.body, content: { 'application/offset+octet-stream': { schema: { type: 'string', format: 'binary' } } } } }
      : {}),
    responses: Object.fromEntries(
      Object.entries(doc.responses).map(([status, response]) => [
        status,
        {
          description: response.description,
          ...(response.headers ? { headers: Object.fromEntries(response.headers.map((h) => [h, { schema: { type: 'string' } }])) } : {}),
        },
      ]),
    ),
  };
}

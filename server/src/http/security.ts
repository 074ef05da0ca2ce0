import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

/** Security headers for the API and the web app served beside it. */
export async function registerSecurityHeaders(app: FastifyInstance, extraImageOrigins: string[] = []): Promise<void> {
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // react-toastify and Tailwind's runtime-free CSS still inject a few inline styles.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:', ...extraImageOrigins],
        connectSrc: ["'self'"],
        fontSrc: ["'self'", 'data:'],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    crossOriginEmbedderPolicy: false,
    // The app is often run on plain http://localhost; HSTS belongs to the TLS proxy in front of it.
    strictTransportSecurity: false,
  });
}

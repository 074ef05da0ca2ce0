import { ConfigError, loadConfig } from './config/config.js';
import { buildApp } from './app.js';
import { compactHeap, shrinkYoungGeneration } from './shared/collect-garbage.js';

const SHUTDOWN_GRACE_MS = 10_000;

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(2);
    }
    throw error;
  }

  const app = await buildApp({ config });
  // Warm before listening (decisions 0030, 0037): the read caches, then the request paths, then
  // one compacting collection of what starting left and the young generation given back (decision
  // 0038) — all before anyone is waiting on the server.
  await app.ready();
  await app.readCachesWarmed();
  await app.warmRequestPaths();
  try {
    compactHeap();
    await shrinkYoungGeneration();
  } catch (error) {
    app.log.warn({ err: error }, 'compacting the heap after start failed');
  }
  await app.listen({ port: config.port, host: config.host });
  app.log.info(`Photo Library is running on http://localhost:${config.port}`);
  // What loading the modules and warming the read caches left: with a 64 MB floor under V8's
  // old-generation limit (npm start, decision 0023) nothing would collect it until the heap reached
  // that, ~5 MB more at rest (more after the warm-up, decision 0030).

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down: finishing in-flight requests');
    const force = setTimeout(() => {
      app.log.error('shutdown took too long; exiting');
      process.exit(1);
    }, SHUTDOWN_GRACE_MS);
    force.unref();
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        app.log.error({ err: error }, 'error during shutdown');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

main().catch((error: unknown) => {
  console.error('The server could not start:', error instanceof Error ? error.message : error);
  if (error instanceof Error && error.cause) console.error('Cause:', error.cause);
  process.exit(1);
});

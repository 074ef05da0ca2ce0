import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { calls } from '@photo/contract';
import type { Database } from '../db/database.js';
import { AppError } from '../http/errors.js';
import { type Authenticate, registerCall } from '../http/route.js';

export function registerHealthRoutes(app: FastifyInstance, authenticate: Authenticate, database: Database, version: string): void {
  registerCall(app, authenticate, calls.health, async () => {
    try {
      await sql`select 1`.execute(database.db);
    } catch (error) {
      app.log.error({ err: error }, 'health check: database unreachable');
      throw new AppError(503, 'The database is unreachable.');
    }
    return { status: 'ok' as const, database: database.dialect, version };
  });
}

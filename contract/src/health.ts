import { z } from 'zod';
import { defineCall } from './call.js';

export const health = defineCall({
  method: 'GET', path: '/api/health', tag: 'system', access: 'public',
  summary: 'Liveness and database reachability',
  response: z.object({ status: z.literal('ok'), database: z.enum(['sqlite', 'postgres']), version: z.string() }),
});

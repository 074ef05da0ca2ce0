import type { IncomingMessage } from 'node:http';
import tailwindcss from '@tailwindcss/vite';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defaultClientConditions, defineConfig } from 'vite';
import { API_URL_PATTERN } from './src/config/api-prefixes.ts';

const API_TARGET = process.env.API_URL ?? 'http://localhost:3000';

/** A browser navigation wants the web app, even on a path that is also an API call (DECISIONS §2). */
function isPageNavigation(req: IncomingMessage): boolean {
  return req.method === 'GET' && (req.headers.accept ?? '').includes('text/html');
}

export default defineConfig({
  plugins: [react(), tailwindcss()],
  resolve: {
    alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) },
    // `source` lets Vite read @photo/contract's TypeScript directly, no contract build needed;
    // the defaults keep every other package resolving as usual.
    conditions: ['source', ...defaultClientConditions],
  },
  server: {
    port: 5173,
    proxy: {
      // A key starting with ^ is a regular expression over the request URL.
      [API_URL_PATTERN]: {
        target: API_TARGET,
        // Returning the URL makes Vite serve the request itself (the web app's index.html).
        bypass: (req) => (isPageNavigation(req) ? req.url : undefined),
      },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    rolldownOptions: {
      output: {
        // Libraries change far less often than the app: separate chunks stay cached across releases.
        codeSplitting: {
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/ },
            { name: 'vendor', test: /node_modules[\\/]/, tags: ['$initial'] },
          ],
        },
      },
    },
  },
});

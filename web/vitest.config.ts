import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defaultClientConditions } from 'vite';
import { defineProject } from 'vitest/config';

export default defineProject({
  plugins: [react()],
  resolve: {
    alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) },
    conditions: ['source', ...defaultClientConditions],
  },
  test: {
    name: 'web',
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/testing/setup-tests.ts'],
    // Above the 5 s findBy… wait (setup-tests.ts), so a slow screen fails with what was missing, not a bare timeout.
    testTimeout: 15_000,
    unstubGlobals: true,
    restoreMocks: true,
    clearMocks: true,
  },
});

import { defaultServerConditions } from 'vite';
import { defineProject } from 'vitest/config';

// `source` makes @photo/contract resolve to its TypeScript, so tests need no contract build.
const conditions = ['source', ...defaultServerConditions];

export default defineProject({
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: ['source'] } },
  test: {
    name: 'server',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    environment: 'node',
    // Each file starts real servers on real databases; argon2 hashing makes a few calls slow-ish.
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});

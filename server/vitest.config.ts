import { defineProject } from 'vitest/config';

export default defineProject({
  resolve: { conditions: ['source'] },
  test: {
    name: 'server',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    environment: 'node',
    // Each file starts real servers on real databases; argon2 hashing makes a few calls slow-ish.
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});

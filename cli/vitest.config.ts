import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'cli',
    include: ['test/**/*.test.ts'],
    environment: 'node',
    // Each test runs real server processes and the command itself.
    testTimeout: 240_000,
    hookTimeout: 120_000,
  },
});

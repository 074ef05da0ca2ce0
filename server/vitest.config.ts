import { defaultServerConditions } from 'vite';
import { defineProject } from 'vitest/config';

// `source` makes @photo/contract resolve to its TypeScript, so tests need no contract build.
// `module` is left out: it is a bundler-only condition, and packages such as the AWS SDK map it to
// extensionless ESM (dist-es) that Node itself cannot load; Node resolves them through `node`.
const conditions = ['source', ...defaultServerConditions.filter((condition) => condition !== 'module')];

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

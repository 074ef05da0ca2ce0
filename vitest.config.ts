import { defineConfig } from 'vitest/config';

// One runner for every unit and integration test; each workspace has its own project config.
export default defineConfig({
  test: {
    projects: ['contract', 'server', 'web', 'cli'],
  },
});

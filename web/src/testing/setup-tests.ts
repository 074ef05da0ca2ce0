import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, vi } from 'vitest';

// findBy…/waitFor wait up to 5 s, not 1 s: lazily loaded screens take longer to appear on a machine
// busy with the server suite running beside these tests; a screen that never appears still fails.
configure({ asyncUtilTimeout: 5000 });

afterEach(() => {
  cleanup();
  window.localStorage.clear();
});

// jsdom does not scroll; the router's scroll restoration calls this on every navigation.
window.scrollTo = vi.fn() as unknown as typeof window.scrollTo;

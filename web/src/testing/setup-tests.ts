import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach, vi } from 'vitest';

afterEach(() => {
  cleanup();
  window.localStorage.clear();
});

// jsdom does not scroll; the router's scroll restoration calls this on every navigation.
window.scrollTo = vi.fn() as unknown as typeof window.scrollTo;

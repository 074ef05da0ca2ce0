import { calls } from '@photo/contract';
import { describe, expect, it } from 'vitest';
import { API_URL_PATTERN, isApiPath } from './api-prefixes';

describe('dev-server proxy paths', () => {
  it.each(Object.values(calls).map((call) => [call.method, call.path]))('covers %s %s', (_method, path) => {
    const concrete = path.replace(/:[A-Za-z_]+/g, 'x');
    expect(isApiPath(concrete)).toBe(true);
    expect(new RegExp(API_URL_PATTERN).test(`${concrete}?a=1`)).toBe(true);
  });

  it('leaves the web app and its modules alone', () => {
    for (const path of ['/src/main.tsx', '/@vite/client', '/node_modules/.vite/x.js', '/tagsfoo', "/photos-i'm-in"]) {
      expect(isApiPath(path)).toBe(false);
      expect(new RegExp(API_URL_PATTERN).test(path)).toBe(false);
    }
  });
});

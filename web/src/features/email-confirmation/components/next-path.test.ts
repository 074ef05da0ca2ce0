import { describe, expect, it } from 'vitest';
import { continuePath, sameOriginPath } from './next-path';

const ORIGIN = 'https://photos.example';

describe('continuePath', () => {
  it('follows a path of this site, query and fragment included', () => {
    expect(sameOriginPath('/share-all/abc?x=1#top', ORIGIN)).toBe('/share-all/abc?x=1#top');
    expect(continuePath('/share-all/abc', '/sharedMedia', ORIGIN)).toBe('/share-all/abc');
  });

  it.each([null, '', 'share-all/abc', '//evil.example', '/\\evil.example', 'https://evil.example/', 'javascript:alert(1)'])(
    'never follows %s: the server’s next instead',
    (requested) => {
      expect(continuePath(requested, '/sharedMedia', ORIGIN)).toBe('/sharedMedia');
    },
  );

  it('falls back to home when the server’s next is no path either', () => {
    expect(continuePath(null, 'https://evil.example/', ORIGIN)).toBe('/');
    expect(continuePath(null, undefined, ORIGIN)).toBe('/');
  });
});

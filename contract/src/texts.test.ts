import { describe, expect, it } from 'vitest';
import { initials, likesText } from './texts.js';
import { buildPath } from './call.js';
import { calls } from './index.js';

describe('initials (spec §9)', () => {
  it('takes the first two letters of a one-word name', () => expect(initials('alice')).toBe('AL'));
  it('takes the first letters of the first two words', () => expect(initials('Ada  Byron Lovelace')).toBe('AB'));
  it("is '?' for an empty name", () => {
    expect(initials('')).toBe('?');
    expect(initials('   ')).toBe('?');
    expect(initials(undefined)).toBe('?');
  });
  it('keeps a one-letter name whole', () => expect(initials('x')).toBe('X'));
});

describe('likesText', () => {
  it('pluralises', () => {
    expect(likesText(0)).toBe('0 Likes');
    expect(likesText(1)).toBe('1 Like');
    expect(likesText(7)).toBe('7 Likes');
  });
});

describe('calls', () => {
  it('keeps the spec paths exactly, typos included', () => {
    expect(calls.getExistingTags.path).toBe('/exisiting-tag');
    expect(calls.getSharedWithMe.path).toBe('/sharedWithMe');
  });
  it('has one call per method and path', () => {
    const keys = Object.values(calls).map((c) => `${c.method} ${c.path}`);
    expect(new Set(keys).size).toBe(keys.length);
  });
  it('fills and encodes path parameters', () => {
    expect(buildPath('/images/:id/like', { id: 'a b' })).toBe('/images/a%20b/like');
    expect(() => buildPath('/images/:id/like')).toThrow(/Missing path parameter id/);
  });
});

import { describe, expect, it } from 'vitest';
import { PageCache } from './page-cache.js';

describe('PageCache', () => {
  it('serves an answer only for the version it was made at, least recently used out first', () => {
    const pages = new PageCache(2);
    pages.set('a', 1, 'A1');
    pages.set('b', 1, 'B1');
    expect(pages.get('a', 1)).toBe('A1');
    expect(pages.get('a', 2)).toBeUndefined();
    pages.set('a', 2, 'A2');
    pages.set('c', 2, 'C2');
    expect(pages.get('b', 1), 'the least recently used went').toBeUndefined();
    expect(pages.get('a', 2)).toBe('A2');
    expect(pages.get('c', 2)).toBe('C2');
  });

  it('with admitSecondAsk, keeps an answer only when its key was asked for at that version before', () => {
    const pages = new PageCache(10, { admitSecondAsk: true });
    expect(pages.get('a', 1)).toBeUndefined();
    pages.set('a', 1, 'A1');
    expect(pages.get('a', 1), 'asked once: not kept').toBeUndefined();
    pages.set('a', 1, 'A1');
    expect(pages.get('a', 1), 'asked again at the same version: kept').toBe('A1');

    // A newer version in between: the ask at version 2 is a first one again.
    pages.set('b', 1, 'B1');
    pages.set('b', 2, 'B2');
    expect(pages.get('b', 2)).toBeUndefined();
    pages.set('b', 2, 'B2');
    expect(pages.get('b', 2)).toBe('B2');
  });

  it('remembers at most four times as many missed keys as it keeps answers', () => {
    const pages = new PageCache(1, { admitSecondAsk: true });
    for (const key of ['a', 'b', 'c', 'd', 'e']) pages.set(key, 1, key);
    pages.set('a', 1, 'a');
    expect(pages.get('a', 1), 'the first ask of a was forgotten').toBeUndefined();
    pages.set('e', 1, 'e');
    expect(pages.get('e', 1)).toBe('e');
  });
});

import { describe, expect, it } from 'vitest';
import { originLabel, readDetailState } from './detail-state';

describe('image detail state', () => {
  it.each([
    ['/search/cats', 'Search'],
    ['/profile?tab=favorites', 'Favorites'],
    ['/profile?tab=tagged', 'My Tagged Images'],
    ['/profile?tab=uploaded', 'Uploaded Images'],
    ['/profile', 'Profile'],
    ['/', 'Gallery'],
    ['/library', 'Gallery'],
    ["/photos-i'm-in", 'Home'],
    [undefined, 'Home'],
  ])('labels the origin %s as %s', (origin, label) => {
    expect(originLabel(origin)).toBe(label);
  });

  it('keeps only well-formed fields', () => {
    expect(readDetailState({ ids: ['a', 'b'], origin: '/search/x', searchText: 'x' })).toEqual({ ids: ['a', 'b'], origin: '/search/x', searchText: 'x' });
    expect(readDetailState({ ids: [1, 2], origin: 'https://elsewhere.example', firstEntry: 'yes' })).toEqual({});
    expect(readDetailState(null)).toEqual({});
  });
});

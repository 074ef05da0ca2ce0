import { describe, expect, it } from 'vitest';
import { hasFinishedTag, normaliseTag, splitTags } from './tag-text';

describe('tag text', () => {
  it('normalises like the server stores tags: trimmed, lower-case, one space between words', () => {
    expect(normaliseTag('  Summer   2024 ')).toBe('summer 2024');
  });

  it('drops a leading "#" (the chips show one already), keeping one inside or at the end', () => {
    expect(normaliseTag('#Beach')).toBe('beach');
    expect(normaliseTag(' ## summer 2024')).toBe('summer 2024');
    expect(normaliseTag('c#')).toBe('c#');
    expect(normaliseTag('#')).toBe('');
    expect(splitTags('#beach, #sun "#summer 2024" #')).toEqual(['beach', 'sun', 'summer 2024']);
  });

  it('splits on spaces or commas, keeps quoted phrases whole, once each', () => {
    expect(splitTags('Beach, sun  sea,beach')).toEqual(['beach', 'sun', 'sea']);
    expect(splitTags('beach "Summer 2024" dog')).toEqual(['beach', 'summer 2024', 'dog']);
    expect(splitTags('"summer 2024')).toEqual(['summer 2024']);
    expect(splitTags('"open quote, then comma')).toEqual(['open quote', 'then', 'comma']);
    expect(splitTags('  ,, ""  ')).toEqual([]);
  });

  it('knows when typed text holds a finished tag', () => {
    expect(hasFinishedTag('beach')).toBe(false);
    expect(hasFinishedTag('beach ')).toBe(true);
    expect(hasFinishedTag('beach,')).toBe(true);
    expect(hasFinishedTag('"summer 20')).toBe(false);
    expect(hasFinishedTag('"summer 2024"')).toBe(true);
  });
});

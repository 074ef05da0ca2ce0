import { describe, expect, it } from 'vitest';
import { makeImage } from '@/testing/images';
import { dayLabel, monthLabel, photosLabel } from './labels';
import { daysOfImages, loadedImageAt, loadedImagesOf, summarizeMonth, type MonthPageData } from './loaded-months';

const at = (id: string, sortedAt: string, overrides = {}) => makeImage(id, { sortedAt, ...overrides });
const pages = (...entries: [number, MonthPageData][]) => new Map(entries);

describe('labels', () => {
  it('names months and days by the UTC calendar, in British English', () => {
    expect(monthLabel('2015-03')).toBe('March 2015');
    expect(dayLabel('2015-03', 14)).toBe('Sat, 14 March');
    expect(photosLabel(1)).toBe('1 photo');
    expect(photosLabel(12345)).toBe('12,345 photos');
  });
});

describe('a loaded month', () => {
  it('counts days by the UTC day of sortedAt, newest first', () => {
    const images = [at('a', '2015-03-14T23:30:00.000Z'), at('b', '2015-03-14T00:10:00.000Z'), at('c', '2015-03-02T12:00:00.000Z')];
    expect(daysOfImages(images)).toEqual([[14, 2], [2, 1]]);
  });

  it('is complete once every page its count needs is loaded, without hidden photos', () => {
    const first = { count: 3, images: [at('a', '2015-03-14T10:00:00Z'), at('b', '2015-03-14T09:00:00Z', { trimmedURL: null })] };
    const second = { count: 3, images: [at('c', '2015-03-13T10:00:00Z', { imageName: 'DISABLED-c' })] };
    expect(summarizeMonth(pages([1, first]), 2).complete).toBeNull();
    expect(summarizeMonth(pages([1, first], [2, second]), 2).complete?.map((image) => image._id)).toEqual(['a']);
    // Pages that disagree on the count are a month in flux: not complete until read again.
    expect(summarizeMonth(pages([1, first], [2, { ...second, count: 4 }]), 2).complete).toBeNull();
    // A month that is now empty is complete, with nothing in it.
    expect(summarizeMonth(pages([1, { count: 0, images: [] }]), 2).complete).toEqual([]);
  });

  it('gives the photo at an index: from the whole month, or from its page', () => {
    const partial = summarizeMonth(pages([2, { count: 5, images: [at('c', '2015-03-01T00:00:00Z'), at('d', '2015-03-01T00:00:00Z', { trimmedURL: null })] }]), 2);
    expect(loadedImageAt(partial, 2, 2)?._id).toBe('c');
    expect(loadedImageAt(partial, 3, 2)).toBeUndefined(); // hidden (no display image)
    expect(loadedImageAt(partial, 0, 2)).toBeUndefined(); // page 1 not loaded
    expect(loadedImageAt(undefined, 0, 2)).toBeUndefined();
  });

  it('lists every loaded photo in gallery order, newest month first', () => {
    const months = new Map([
      ['2014-01', summarizeMonth(pages([1, { count: 1, images: [at('old', '2014-01-01T00:00:00Z')] }]), 100)],
      ['2015-03', summarizeMonth(pages([2, { count: 101, images: [at('m2', '2015-03-01T00:00:00Z')] }], [1, { count: 101, images: [at('m1', '2015-03-02T00:00:00Z')] }]), 100)],
    ]);
    expect(loadedImagesOf(months).map((image) => image._id)).toEqual(['m1', 'm2', 'old']);
  });
});

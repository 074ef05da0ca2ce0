import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { makeImage } from '@/testing/images';
import { isTimelineMonthKey, pruneMonthPages, timelineMonthQueryKey, type TimelineMonthPage } from './get-timeline-month';

const pageOf = (month: string, page: number): TimelineMonthPage => ({
  month,
  count: 1,
  offset: 0,
  galleryPage: 1,
  images: [makeImage(`${month}-${page}`)],
  pagination: { currentPage: page, hasMore: false, totalImages: 1 },
});

describe('the cached month pages', () => {
  it('are told apart from the timeline itself', () => {
    expect(isTimelineMonthKey(timelineMonthQueryKey('2015-03', 2))).toBe(true);
    expect(isTimelineMonthKey(['gallery', 'timeline'])).toBe(false);
    expect(isTimelineMonthKey(['gallery', 'by-tags', []])).toBe(false);
  });

  it('are kept to a bounded number: the least recently read go first, never one on screen, wanted or holding a selected photo', () => {
    const client = new QueryClient();
    const months = Array.from({ length: 12 }, (_, index) => `2015-${String(12 - index).padStart(2, '0')}`);
    months.forEach((month, index) => client.setQueryData(timelineMonthQueryKey(month, 1), pageOf(month, 1), { updatedAt: 1000 + index }));
    // December (the oldest read) is on screen; November is wanted next; October holds a selected photo.
    const unsubscribe = new QueryObserver(client, { queryKey: timelineMonthQueryKey('2015-12', 1), enabled: false }).subscribe(() => {});
    pruneMonthPages(client, [{ month: '2015-11', page: 1 }], (page) => page.images.some((image) => image._id === '2015-10-1'), 5);

    const left = client.getQueryCache().findAll({ queryKey: ['gallery', 'timeline', 'month'] }).map((query) => query.queryKey[3]);
    expect(left).toHaveLength(5);
    expect(left).toEqual(expect.arrayContaining(['2015-12', '2015-11', '2015-10', '2015-02', '2015-01']));
    unsubscribe();
  });
});

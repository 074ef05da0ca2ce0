import { useCallback, useEffect, useMemo, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useLocation } from 'react-router';
import type { Image } from '@photo/contract';
import { isShownInGallery } from '@/lib/images';
import { shuffled } from '@/lib/shuffle';
import { useImagesWithTags } from '../api/get-gallery';
import { savedView, saveView } from './saved-views';

export type GalleryMode = 'default' | 'random' | 'tags';

/**
 * Spec §4 Gallery mode and tag filter: which images the grid shows, or whether the timeline does.
 * Default shows the timeline (its loaded months are `loaded`); random a shuffled copy of what is
 * loaded; tags the whole library's matches.
 */
export function useGalleryView(loaded: Image[]) {
  const { key } = useLocation();
  const client = useQueryClient();
  const [mode, setMode] = useState<GalleryMode>(() => savedView(client, key)?.mode ?? 'default');
  const [randomOrder, setRandomOrder] = useState<Image[]>(() => savedView(client, key)?.randomOrder ?? []);
  const [tags, setTags] = useState<ReadonlySet<string>>(() => savedView(client, key)?.tags ?? new Set());
  useEffect(() => saveView(client, key, { mode, randomOrder, tags }), [client, key, mode, randomOrder, tags]);
  const tagList = useMemo(() => [...tags], [tags]);
  const filtered = useImagesWithTags(mode === 'tags' ? tagList : []);

  const randomize = useCallback(() => {
    setTags(new Set()); // spec §4: random clears the tag filters
    setRandomOrder(shuffled(loaded));
    setMode('random');
  }, [loaded]);

  const toggleTagPanel = useCallback(() => setMode((current) => (current === 'tags' ? 'default' : 'tags')), []);
  const closeTagPanel = useCallback(() => setMode((current) => (current === 'tags' ? 'default' : current)), []);

  const toggleTag = useCallback((tag: string) => {
    setTags((current) => {
      const next = new Set(current);
      if (next.has(tag)) next.delete(tag);
      else next.add(tag);
      return next;
    });
  }, []);

  const reset = useCallback(() => {
    setTags(new Set());
    setRandomOrder([]);
    setMode('default');
  }, []);

  // With tags chosen the list comes from the server; on failure the loaded list stays (spec §4).
  const filtering = mode === 'tags' && tagList.length > 0;
  const images = useMemo(() => {
    if (mode === 'random') {
      // A deletion while shuffled removes the image from the loaded list; the order follows.
      const loadedIds = new Set(loaded.map((image) => image._id));
      return randomOrder.filter((image) => loadedIds.has(image._id) && isShownInGallery(image));
    }
    // A failed refresh of the matches keeps the last ones; only a failed first read falls back.
    const source = filtering && filtered.data !== undefined ? filtered.data : loaded;
    return source.filter(isShownInGallery);
  }, [mode, randomOrder, loaded, filtering, filtered.data]);

  return {
    mode,
    tags,
    images,
    filtering,
    filterPending: filtering && filtered.isPending,
    /** The timeline shows whenever the list is the plain library (also when a failed filter fell back to it). */
    showsTimeline: mode === 'default' || (mode === 'tags' && (!filtering || (filtered.isError && filtered.data === undefined))),
    randomize,
    toggleTagPanel,
    closeTagPanel,
    toggleTag,
    reset,
  };
}

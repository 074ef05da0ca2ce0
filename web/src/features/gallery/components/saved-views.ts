import type { Image } from '@photo/contract';
import type { QueryClient } from '@tanstack/react-query';
import type { Anchor } from './timeline/layout';
import type { GalleryMode } from './use-gallery-view';

export type SavedView = { mode: GalleryMode; randomOrder: Image[]; tags: ReadonlySet<string> };

/**
 * The view of each gallery history entry (by the router's location key). Opening an image and
 * coming back remounts the gallery; the router restores the window's scroll position, and this
 * restores the shuffled or filtered list that position belongs to, and the place in the timeline
 * (which scrolls in its own container). Kept in memory, per query client (one per app, so one per
 * signed-in session; a fresh one per test): a reload starts over.
 */
const KEEP = 20;

function store<T>() {
  const byClient = new WeakMap<QueryClient, Map<string, T>>();
  const entriesOf = (client: QueryClient) => {
    let entries = byClient.get(client);
    if (!entries) byClient.set(client, (entries = new Map()));
    return entries;
  };
  return {
    get: (client: QueryClient, key: string): T | undefined => entriesOf(client).get(key),
    set: (client: QueryClient, key: string, value: T): void => {
      const entries = entriesOf(client);
      entries.delete(key);
      entries.set(key, value);
      if (entries.size > KEEP) entries.delete(entries.keys().next().value!);
    },
  };
}

const views = store<SavedView>();
const anchors = store<Anchor | null>();

export function savedView(client: QueryClient, key: string): SavedView | undefined {
  return views.get(client, key);
}

export function saveView(client: QueryClient, key: string, view: SavedView): void {
  views.set(client, key, view);
}

export function savedTimelineAnchor(client: QueryClient, key: string): Anchor | null | undefined {
  return anchors.get(client, key);
}

export function saveTimelineAnchor(client: QueryClient, key: string, anchor: Anchor | null): void {
  anchors.set(client, key, anchor);
}

import type { Image } from '@photo/contract';
import type { QueryClient } from '@tanstack/react-query';
import type { GalleryMode } from './use-gallery-view';

export type SavedView = { mode: GalleryMode; randomOrder: Image[]; tags: ReadonlySet<string> };

/**
 * The view of each gallery history entry (by the router's location key). Opening an image and
 * coming back remounts the gallery; the router restores the scroll position, and this restores
 * the shuffled or filtered list that position belongs to. Kept in memory, per query client (one
 * per app, so one per signed-in session; a fresh one per test): a reload starts over.
 */
const viewsByClient = new WeakMap<QueryClient, Map<string, SavedView>>();
const KEEP = 20;

function viewsOf(client: QueryClient): Map<string, SavedView> {
  let views = viewsByClient.get(client);
  if (!views) viewsByClient.set(client, (views = new Map()));
  return views;
}

export function savedView(client: QueryClient, key: string): SavedView | undefined {
  return viewsOf(client).get(key);
}

export function saveView(client: QueryClient, key: string, view: SavedView): void {
  const views = viewsOf(client);
  views.delete(key);
  views.set(key, view);
  if (views.size > KEEP) views.delete(views.keys().next().value!);
}

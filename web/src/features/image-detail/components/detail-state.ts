import type { ImageDetailState } from '@/lib/images';

/**
 * What the detail keeps in its own history entry: the state the opening screen handed over, plus
 * whether that entry is the first of the visit (stepping replaces the entry, which loses the
 * router's "default" key, so the fact is carried along).
 */
export type DetailEntryState = ImageDetailState & { firstEntry?: boolean };

const isStringArray = (value: unknown): value is string[] => Array.isArray(value) && value.every((item) => typeof item === 'string');

/** Router state is whatever the history holds (another version of the app may have written it): check it. */
export function readDetailState(state: unknown): DetailEntryState {
  if (typeof state !== 'object' || state === null) return {};
  const { ids, origin, searchText, firstEntry } = state as Record<string, unknown>;
  return {
    ids: isStringArray(ids) ? ids : undefined,
    origin: typeof origin === 'string' && origin.startsWith('/') ? origin : undefined,
    searchText: typeof searchText === 'string' ? searchText : undefined,
    firstEntry: firstEntry === true ? true : undefined,
  };
}

export type OriginLabel = 'Search' | 'Favorites' | 'My Tagged Images' | 'Uploaded Images' | 'Profile' | 'Gallery' | 'Home';

const PROFILE_TAB_LABELS: Record<string, OriginLabel> = {
  favorites: 'Favorites',
  tagged: 'My Tagged Images',
  uploaded: 'Uploaded Images',
};

/** Spec §2 Image detail: the breadcrumb label follows where the image was opened from. */
export function originLabel(origin: string | undefined): OriginLabel {
  if (!origin) return 'Home';
  const url = new URL(origin, 'http://origin.invalid');
  if (url.pathname.startsWith('/search/')) return 'Search';
  if (url.pathname === '/profile') return PROFILE_TAB_LABELS[url.searchParams.get('tab') ?? ''] ?? 'Profile';
  if (['/', '/library', '/random'].includes(url.pathname)) return 'Gallery';
  return 'Home';
}

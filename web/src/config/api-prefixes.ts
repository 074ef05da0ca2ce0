/**
 * First path segments of every API call (contract `calls`) plus the server's media URLs.
 * The Vite dev server proxies requests under these to the API server; a test checks that
 * every contract call is covered, so a new call cannot silently miss the proxy.
 *
 * Several of these are also screens (`/profile`, `/library`, `/signin`, `/search/…`):
 * the proxy lets a browser navigation (Accept: text/html) through to the web app.
 */
export const API_PREFIXES = [
  '/api',
  '/breadcrumbs',
  '/gridimages',
  '/profile',
  '/update-profile',
  '/upload-profile-image',
  '/library',
  '/search',
  '/exisiting-tag',
  '/tags',
  '/add-tags',
  '/remove-tag',
  '/images',
  '/user-tags',
  '/mytagged-imgs',
  '/my-liked-images',
  '/isUserInPhoto',
  '/getTaggedUser',
  '/inPhoto',
  '/photosUserTaggedIn',
  '/signin',
  '/signup',
  '/forgot-password',
  '/reset-password',
  '/bulk-upload',
  '/share-img',
  '/shared-images',
  '/downloads',
  '/sharedWithMe',
  '/getUserAccessData',
  '/updateUserStatus',
  '/admin-tags',
  '/admin',
  /** Signed image URLs served by the server (DECISIONS §4). */
  '/media',
] as const;

/** True when `pathname` is one of the prefixes or lies below it (`/tags` but not `/tagsfoo`). */
export function isApiPath(pathname: string): boolean {
  return API_PREFIXES.some((prefix) => pathname === prefix || pathname.startsWith(`${prefix}/`));
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The same rule as a regular expression over a request URL (path plus optional query). */
export const API_URL_PATTERN = `^(?:${API_PREFIXES.map(escapeRegExp).join('|')})(?:[/?]|$)`;

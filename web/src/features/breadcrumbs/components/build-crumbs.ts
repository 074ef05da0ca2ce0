import { matchPath } from 'react-router';
import { paths } from '@/config/paths';

/** `href` is null for a segment that is no screen of its own (`/image` of `/image/42`). */
export type Crumb = { label: string; href: string | null };

export type BreadcrumbNames = Record<string, string>;

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

const screenPatterns = Object.values(paths).map((entry) => entry.path);

function isScreen(path: string): boolean {
  return screenPatterns.some((pattern) => matchPath(pattern, path) !== null);
}

/**
 * Spec §2: two segments link somewhere more useful than their own path. Any other segment links
 * to its own path when that is a screen; otherwise a link would only lead to the 404 page.
 */
function hrefFor(segments: string[], index: number, cumulative: string): string | null {
  const segment = segments[index];
  if (segment === 'sharedWithMe' && segments[index - 1] === 'sharedMedia') return '/sharedMedia';
  if (segment === 'shared-photos') return '/users-i-sharedWith';
  return isScreen(safeDecode(cumulative)) ? cumulative : null;
}

/**
 * One crumb per path segment. The label is the server's name for the cumulative path
 * (`/sharedMedia/sharedWithMe`), else its name for the bare segment, else the decoded segment.
 */
export function buildCrumbs(pathname: string, names: BreadcrumbNames = {}): Crumb[] {
  const segments = pathname.split('/').filter(Boolean);
  return segments.map((segment, index) => {
    const cumulative = `/${segments.slice(0, index + 1).join('/')}`;
    const decodedCumulative = safeDecode(cumulative);
    const decoded = safeDecode(segment);
    const label =
      names[decodedCumulative] ?? names[cumulative] ?? names[decoded] ?? names[`/${decoded}`] ?? decoded;
    return { label, href: hrefFor(segments, index, cumulative) };
  });
}

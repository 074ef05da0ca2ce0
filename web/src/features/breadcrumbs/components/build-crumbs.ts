export type Crumb = { label: string; href: string };

export type BreadcrumbNames = Record<string, string>;

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** Spec §2: two segments link somewhere more useful than their own path. */
function hrefFor(segments: string[], index: number, cumulative: string): string {
  const segment = segments[index];
  if (segment === 'sharedWithMe' && segments[index - 1] === 'sharedMedia') return '/sharedMedia';
  if (segment === 'shared-photos') return '/users-i-sharedWith';
  return cumulative;
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

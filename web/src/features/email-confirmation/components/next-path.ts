/**
 * Where "Continue" leads after a confirmation: the link's own `next` (a share-all page hands
 * its address) when it is a path of this site, else the server's suggestion, else home. A value
 * like `//evil.example` or `https://…` would leave the site, so it is never followed.
 */
export function continuePath(requested: string | null, fromServer: string | undefined, origin = window.location.origin): string {
  return sameOriginPath(requested, origin) ?? sameOriginPath(fromServer ?? null, origin) ?? '/';
}

export function sameOriginPath(candidate: string | null, origin: string): string | null {
  // One leading slash only: `//host` and `/\host` are read by browsers as another site.
  if (!candidate || !/^\/(?![/\\])/.test(candidate)) return null;
  try {
    const url = new URL(candidate, origin);
    return url.origin === origin ? `${url.pathname}${url.search}${url.hash}` : null;
  } catch {
    return null;
  }
}

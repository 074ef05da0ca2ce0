/**
 * Full-page navigations. Sign-in, sign-up and sign-out reload the page on purpose (spec §4) so
 * that no state of the previous session survives. Kept in one module so tests can replace them.
 */
export function assignLocation(url: string): void {
  window.location.assign(url);
}

export function reloadPage(): void {
  window.location.reload();
}

/**
 * Every screen of spec §2's route table: the router's pattern and a builder for links.
 * Paths are a contract with the spec and the server; keep them exactly.
 */
const enc = encodeURIComponent;

export const paths = {
  home: { path: '/', getHref: () => '/' },
  library: { path: '/library', getHref: () => '/library' },
  random: { path: '/random', getHref: () => '/random' },
  search: { path: '/search/:query', getHref: (query: string) => `/search/${enc(query)}` },
  profile: { path: '/profile', getHref: () => '/profile' },
  editProfile: { path: '/editProfile', getHref: () => '/editProfile' },
  uploadImages: { path: '/uploadImages', getHref: () => '/uploadImages' },

  signin: { path: '/signin', getHref: () => '/signin' },
  /** With a proof token (from a mailed link) the form takes the address from it and confirms it. */
  signup: { path: '/signup', getHref: (proof?: string) => (proof ? `/signup?proof=${enc(proof)}` : '/signup') },
  forgotPassword: { path: '/forgot-password', getHref: () => '/forgot-password' },
  resetPassword: { path: '/reset-password/:token', getHref: (token: string) => `/reset-password/${enc(token)}` },
  /** The link mailed to prove an address (not in spec §2: shares reach an account only once it is proven). */
  confirmEmail: {
    path: '/confirm-email/:token',
    // `next` is a path; its slashes stay readable (they need no escaping in a query string).
    getHref: (token: string, next?: string) =>
      `/confirm-email/${enc(token)}${next ? `?next=${enc(next).replace(/%2F/g, '/')}` : ''}`,
  },

  sharedToken: { path: '/shared/:token', getHref: (token: string) => `/shared/${enc(token)}` },
  allAccess: { path: '/all-access', getHref: () => '/all-access' },
  sharedMedia: { path: '/sharedMedia', getHref: () => '/sharedMedia' },
  sharedWithMeUser: {
    path: '/sharedMedia/sharedWithMe/:userName',
    getHref: (userName: string) => `/sharedMedia/sharedWithMe/${enc(userName)}`,
  },
  shareAll: { path: '/share-all/:link', getHref: (link: string) => `/share-all/${enc(link)}` },
  userAccessData: { path: '/user-access-data', getHref: () => '/user-access-data' },
  sharedImage: { path: '/shared/image/:id', getHref: (id: string) => `/shared/image/${enc(id)}` },
  admin: { path: '/admin', getHref: () => '/admin' },
  usersISharedWith: { path: '/users-i-sharedWith', getHref: () => '/users-i-sharedWith' },
  sharedPhotos: { path: '/shared-photos/:userName', getHref: (userName: string) => `/shared-photos/${enc(userName)}` },
  image: { path: '/image/:id', getHref: (id: string) => `/image/${enc(id)}` },
  photosImIn: { path: "/photos-i'm-in", getHref: () => "/photos-i'm-in" },
  /** Deleted photos, until restored or deleted for good (not in spec §2: the Trash came later). */
  trash: { path: '/trash', getHref: () => '/trash' },
} as const;

/** Pages without the search box and breadcrumbs (spec §2 General), and the address confirmation page. */
export const AUTH_PATH_PREFIXES = ['/signin', '/signup', '/forgot-password', '/reset-password', '/confirm-email'] as const;

export function isAuthPage(pathname: string): boolean {
  return AUTH_PATH_PREFIXES.some((prefix) => pathname === prefix || pathname.startsWith(`${prefix}/`));
}

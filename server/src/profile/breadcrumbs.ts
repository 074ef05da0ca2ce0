/**
 * Display names for breadcrumb segments (spec §2 General), keyed by the path up to that segment.
 * Segments not listed (an image id, a person's name) show as their decoded text.
 */
export const breadcrumbNames: Record<string, string> = {
  '/library': 'Image Library',
  '/random': 'Random',
  '/search': 'Search',
  '/profile': 'Profile',
  '/editProfile': 'Edit Profile',
  '/uploadImages': 'Upload Images',
  '/shared': 'Shared',
  '/shared/image': 'Shared Image',
  '/all-access': 'All Access',
  '/sharedMedia': 'Shared with me',
  // Not 'Shared with me' again: a sharer's page read "Home › Shared with me › Shared with me › Alice".
  '/sharedMedia/sharedWithMe': 'Shared by',
  '/share-all': 'Shared Images',
  '/user-access-data': 'User Access Management',
  '/admin': 'Admin Tags',
  '/users-i-sharedWith': 'Photos I Shared',
  '/shared-photos': 'Photos I Shared',
  '/image': 'Image',
  "/photos-i'm-in": "Photos I'm in",
  '/trash': 'Trash',
};

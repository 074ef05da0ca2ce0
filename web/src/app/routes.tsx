import { lazy, Suspense, type ComponentType } from 'react';
import { Navigate, type RouteObject } from 'react-router';
import { Loading } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { GalleryScreen } from '@/features/gallery/components/gallery-screen';
import { isChunkLoadError, reloadOnceForChunk } from './chunk-load';
import { AppErrorFallback } from './error-fallback';
import { RequireAuth } from './guards/require-auth';
import { ContentLayout } from './layouts/content-layout';
import { RootLayout } from './layouts/root-layout';

/**
 * A screen in a chunk of its own, loaded when first shown. A signed-in `/` (the gallery) then loads
 * only its own code, which keeps the first load within its budget (200 KB gzip). The route matches
 * at once (navigation does not wait for the chunk); the screen shows a spinner meanwhile.
 *
 * A chunk that cannot be fetched (offline, or gone after an upgrade) reloads the page once, which
 * brings the current build; the spinner stays until the page goes. If that does not cure it, the
 * route's error screen shows the failure with a Reload button.
 */
export function lazyScreen(load: () => Promise<ComponentType>) {
  const Screen = lazy(async () => {
    try {
      return { default: await load() };
    } catch (error) {
      if (isChunkLoadError(error) && reloadOnceForChunk()) return new Promise<never>(() => {});
      throw error;
    }
  });
  return (
    <Suspense fallback={<Loading />}>
      <Screen />
    </Suspense>
  );
}

/** Spec §2 route table, behind the guard unless the spec names the route public. */
const guardedRoutes: RouteObject[] = [
  { path: paths.home.path, element: <GalleryScreen /> },
  { path: paths.library.path, element: lazyScreen(async () => (await import('@/features/library/components/library-screen')).LibraryScreen) },
  { path: paths.random.path, element: lazyScreen(async () => (await import('@/features/library/components/random-screen')).RandomScreen) },
  { path: paths.search.path, element: lazyScreen(async () => (await import('@/features/search/components/search-results-screen')).SearchResultsScreen) },
  { path: paths.profile.path, element: lazyScreen(async () => (await import('@/features/profile/components/profile-screen')).ProfileScreen) },
  { path: paths.editProfile.path, element: lazyScreen(async () => (await import('@/features/profile/components/edit-profile-screen')).EditProfileScreen) },
  { path: paths.uploadImages.path, element: lazyScreen(async () => (await import('@/features/upload/components/upload-images-screen')).UploadImagesScreen) },
  { path: paths.sharedToken.path, element: lazyScreen(async () => (await import('@/features/shared-with-me/components/shared-token-screen')).SharedTokenScreen) },
  { path: paths.allAccess.path, element: lazyScreen(async () => (await import('@/features/share-all/components/all-access-screen')).AllAccessScreen) },
  { path: paths.sharedMedia.path, element: lazyScreen(async () => (await import('@/features/shared-with-me/components/shared-media-screen')).SharedMediaScreen) },
  { path: paths.sharedWithMeUser.path, element: lazyScreen(async () => (await import('@/features/shared-with-me/components/sharer-images-screen')).SharerImagesScreen) },
  { path: paths.userAccessData.path, element: lazyScreen(async () => (await import('@/features/user-access/components/user-access-screen')).UserAccessScreen) },
  { path: paths.sharedImage.path, element: lazyScreen(async () => (await import('@/features/image-detail/components/shared-image-detail-screen')).SharedImageDetailScreen) },
  { path: paths.admin.path, element: lazyScreen(async () => (await import('@/features/admin-tags/components/admin-tags-screen')).AdminTagsScreen) },
  { path: paths.usersISharedWith.path, element: lazyScreen(async () => (await import('@/features/shared-by-me/components/users-i-shared-with-screen')).UsersISharedWithScreen) },
  { path: paths.sharedPhotos.path, element: lazyScreen(async () => (await import('@/features/shared-by-me/components/shared-photos-screen')).SharedPhotosScreen) },
  { path: paths.image.path, element: lazyScreen(async () => (await import('@/features/image-detail/components/image-detail-screen')).ImageDetailScreen) },
  { path: paths.photosImIn.path, element: lazyScreen(async () => (await import('@/features/photos-im-in/components/photos-im-in-screen')).PhotosImInScreen) },
  { path: paths.trash.path, element: lazyScreen(async () => (await import('@/features/trash/components/trash-screen')).TrashScreen) },
  // Spec §2 names this as the way back from one person's shared photos; it is the folders screen.
  { path: '/my-shared-photos', element: <Navigate to={paths.usersISharedWith.getHref()} replace /> },
];

const authRoutes: RouteObject[] = [
  { path: paths.signin.path, element: lazyScreen(async () => (await import('@/features/auth/components/signin-screen')).SigninScreen) },
  { path: paths.signup.path, element: lazyScreen(async () => (await import('@/features/auth/components/signup-screen')).SignupScreen) },
  { path: paths.forgotPassword.path, element: lazyScreen(async () => (await import('@/features/auth/components/forgot-password-screen')).ForgotPasswordScreen) },
  { path: paths.resetPassword.path, element: lazyScreen(async () => (await import('@/features/auth/components/reset-password-screen')).ResetPasswordScreen) },
  // Opened from a mail, rarely.
  { path: paths.confirmEmail.path, element: lazyScreen(async () => (await import('@/features/email-confirmation/components/confirm-email-screen')).ConfirmEmailScreen) },
];

/**
 * The whole route tree. Paths that match nothing fall to the root's error element with a
 * 404 from the router itself; errors inside a page keep the header and breadcrumbs.
 */
export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <AppErrorFallback />,
    children: [
      ...authRoutes,
      {
        element: <ContentLayout />,
        errorElement: <AppErrorFallback />,
        children: [
          { path: paths.shareAll.path, element: lazyScreen(async () => (await import('@/features/share-all/components/share-all-screen')).ShareAllScreen) },
          { element: <RequireAuth />, children: guardedRoutes },
        ],
      },
    ],
  },
];

import { Navigate, type RouteObject } from 'react-router';
import { Loading } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { ForgotPasswordScreen } from '@/features/auth/components/forgot-password-screen';
import { ResetPasswordScreen } from '@/features/auth/components/reset-password-screen';
import { SigninScreen } from '@/features/auth/components/signin-screen';
import { SignupScreen } from '@/features/auth/components/signup-screen';
import { AdminTagsScreen } from '@/features/admin-tags/components/admin-tags-screen';
import { GalleryScreen } from '@/features/gallery/components/gallery-screen';
import { ImageDetailScreen } from '@/features/image-detail/components/image-detail-screen';
import { SharedImageDetailScreen } from '@/features/image-detail/components/shared-image-detail-screen';
import { LibraryScreen } from '@/features/library/components/library-screen';
import { RandomScreen } from '@/features/library/components/random-screen';
import { PhotosImInScreen } from '@/features/photos-im-in/components/photos-im-in-screen';
import { EditProfileScreen } from '@/features/profile/components/edit-profile-screen';
import { ProfileScreen } from '@/features/profile/components/profile-screen';
import { SearchResultsScreen } from '@/features/search/components/search-results-screen';
import { AllAccessScreen } from '@/features/share-all/components/all-access-screen';
import { ShareAllScreen } from '@/features/share-all/components/share-all-screen';
import { SharedPhotosScreen } from '@/features/shared-by-me/components/shared-photos-screen';
import { UsersISharedWithScreen } from '@/features/shared-by-me/components/users-i-shared-with-screen';
import { SharedMediaScreen } from '@/features/shared-with-me/components/shared-media-screen';
import { SharedTokenScreen } from '@/features/shared-with-me/components/shared-token-screen';
import { SharerImagesScreen } from '@/features/shared-with-me/components/sharer-images-screen';
import { TrashScreen } from '@/features/trash/components/trash-screen';
import { UploadImagesScreen } from '@/features/upload/components/upload-images-screen';
import { UserAccessScreen } from '@/features/user-access/components/user-access-screen';
import { AppErrorFallback } from './error-fallback';
import { RequireAuth } from './guards/require-auth';
import { ContentLayout } from './layouts/content-layout';
import { RootLayout } from './layouts/root-layout';

/** Spec §2 route table, behind the guard unless the spec names the route public. */
const guardedRoutes: RouteObject[] = [
  { path: paths.home.path, element: <GalleryScreen /> },
  { path: paths.library.path, element: <LibraryScreen /> },
  { path: paths.random.path, element: <RandomScreen /> },
  { path: paths.search.path, element: <SearchResultsScreen /> },
  { path: paths.profile.path, element: <ProfileScreen /> },
  { path: paths.editProfile.path, element: <EditProfileScreen /> },
  { path: paths.uploadImages.path, element: <UploadImagesScreen /> },
  { path: paths.sharedToken.path, element: <SharedTokenScreen /> },
  { path: paths.allAccess.path, element: <AllAccessScreen /> },
  { path: paths.sharedMedia.path, element: <SharedMediaScreen /> },
  { path: paths.sharedWithMeUser.path, element: <SharerImagesScreen /> },
  { path: paths.userAccessData.path, element: <UserAccessScreen /> },
  { path: paths.sharedImage.path, element: <SharedImageDetailScreen /> },
  { path: paths.admin.path, element: <AdminTagsScreen /> },
  { path: paths.usersISharedWith.path, element: <UsersISharedWithScreen /> },
  { path: paths.sharedPhotos.path, element: <SharedPhotosScreen /> },
  { path: paths.image.path, element: <ImageDetailScreen /> },
  { path: paths.photosImIn.path, element: <PhotosImInScreen /> },
  { path: paths.trash.path, element: <TrashScreen /> },
  // Spec §2 names this as the way back from one person's shared photos; it is the folders screen.
  { path: '/my-shared-photos', element: <Navigate to={paths.usersISharedWith.getHref()} replace /> },
];

const authRoutes: RouteObject[] = [
  { path: paths.signin.path, element: <SigninScreen /> },
  { path: paths.signup.path, element: <SignupScreen /> },
  { path: paths.forgotPassword.path, element: <ForgotPasswordScreen /> },
  { path: paths.resetPassword.path, element: <ResetPasswordScreen /> },
  // Opened from a mail, rarely: its own chunk, so the signed-in pages do not load it.
  {
    path: paths.confirmEmail.path,
    hydrateFallbackElement: <Loading />,
    lazy: async () => ({
      Component: (await import('@/features/email-confirmation/components/confirm-email-screen')).ConfirmEmailScreen,
    }),
  },
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
          { path: paths.shareAll.path, element: <ShareAllScreen /> },
          { element: <RequireAuth />, children: guardedRoutes },
        ],
      },
    ],
  },
];

import { calls, type ResponseOf } from '@photo/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from './api-client';
import { clearToken, getToken, getTokenPayload } from './auth-token';
import { reloadPage } from './browser';

/** Shared by the header (reads it) and the profile editor (invalidates it). */
export const currentUserQueryKey = ['users', 'me'] as const;

export type CurrentUser = ResponseOf<typeof calls.getMe>;

export const currentUserQueryOptions = () =>
  queryOptions({
    queryKey: currentUserQueryKey,
    queryFn: ({ signal }) => callApi(calls.getMe, { signal }),
    staleTime: 5 * 60_000,
  });

/** The signed-in person's name and avatar; idle when nobody is signed in. */
export function useCurrentUser() {
  return useQuery({ ...currentUserQueryOptions(), enabled: getToken() !== null });
}

export function isSignedIn(): boolean {
  return getToken() !== null;
}

/** Spec §6: the client decides what to show from the token's role; the server enforces it. */
export function isAdmin(): boolean {
  return getTokenPayload()?.user.role === 'admin';
}

/** The signed-in person's id from the token (null when signed out), to tell their own images apart. */
export function currentUserId(): string | null {
  return getTokenPayload()?.user.id ?? null;
}

/**
 * The image's uploader or an admin: the people the server lets share it selectively, delete it and
 * remove any tag on it (server/src/access/image-visibility.ts, tags.service.ts). The client only
 * decides what to offer from this; the server still checks every call.
 */
export function isUploaderOrAdmin(image: { uploadedBy: string | null }): boolean {
  return isAdmin() || (image.uploadedBy !== null && image.uploadedBy === currentUserId());
}

/**
 * DECISIONS §3: selective sharing is for images the person uploaded, or any image for an admin.
 * Offering Share on someone else's photo would only end in a refusal the spec lets us only log.
 */
export function mayShareImage(image: { uploadedBy: string | null }): boolean {
  return isUploaderOrAdmin(image);
}

/** DECISIONS §3: only the uploader (or an admin) may delete an image. */
export function mayDeleteImage(image: { uploadedBy: string | null }): boolean {
  return isUploaderOrAdmin(image);
}

/** Spec §4: Sign Out removes the token and reloads the page. */
export function signOut(): void {
  clearToken();
  reloadPage();
}

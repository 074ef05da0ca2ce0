/**
 * Texts people see (spec §2, §5, §8). They are a contract: keep them exactly as written,
 * including their punctuation. Both the server and the web app read them from here.
 */
export const SESSION_EXPIRED = 'Session expired. Please sign in again.';
export const BREADCRUMBS_ERROR_LOG = 'Error fetching breadcrumbs:';
export const SIGNIN_FAILED = 'Invalid credentials, please try again.';
export const SIGNUP_FAILED = 'User already exists or there was an issue with signup.';
export const GENERIC_ERROR = 'An error occurred';
export const PASSWORDS_DO_NOT_MATCH = 'Passwords do not match';
export const IMAGE_LOAD_FAILED = 'Failed to load image. Please try again.';
export const IMAGE_NOT_FOUND = 'Image not found';
export const TAGS_SAVE_FAILED = 'There was an error saving the tags.';
export const EMAIL_SENT = 'Email sent!!';
export const NO_RESULTS_TITLE = 'No results found';
export const NO_RESULTS_TEXT =
  "We couldn't find any images matching your search. Please try a different search term or check your spelling.";
export const UPLOAD_FAILED = 'There was an error uploading the images.';
export const UPLOAD_EMPTY = 'Please select images to upload.';
export const UPLOADING = 'Uploading...';
export const TAG_UPDATE_FAILED = 'Error updating tag!';
export const TAGS_MERGED = 'Tags merged successfully!!';
export const TAG_SAVED = 'Tag saved successfully!!';
export const SHARED_IMAGES_FAILED = 'Error fetching images';
export const SHARED_WITH_USER_FAILED = 'Failed to load shared images';
export const SELECT_ONE_IMAGE = 'Please select at least one image.';
export const ENTER_ONE_TAG = 'Please enter at least one tag.';
export const LOADING_MORE = 'Loading more images...';
export const APP_ERROR_TITLE = 'Unexpected Application Error!';
export const NO_ACCESS_TITLE = 'User has no access';
export const NO_ACCESS_TEXT = 'No media has been shared with you yet.';
export const USER_NOT_FOUND = 'User Not Found';
export const NOTHING_SHARED_YET = "You haven't shared any photos yet.";
export const NO_IMAGES_FOR_USER = 'No images shared with this user yet.';
export const NO_TEMPLATES = 'No email templates available. Create your first template to get started.';
export const IM_IN_THIS_PHOTO = "I'm in this photo!";
export const NO_TAGS = 'No tags';

/** The server's answer to forgot-password, the same whether or not the address has an account. */
export const RESET_MAIL_SENT = 'If an account exists for that e-mail address, a password reset link has been sent to it.';
export const PASSWORD_RESET_DONE = 'Your password has been reset. You can now sign in.';
export const RESET_TOKEN_INVALID = 'This password reset link is invalid or has expired. Please ask for a new one.';
export const TOO_MANY_ATTEMPTS = 'Too many sign-in attempts. Please wait a few minutes and try again.';

export function likesText(count: number): string {
  return count === 1 ? '1 Like' : `${count} Likes`;
}

/** Spec §9: first two letters of a one-word name, else the first letters of the first two words, '?' if empty. */
export function initials(name: string | null | undefined): string {
  const words = (name ?? '').trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return '?';
  if (words.length === 1) return Array.from(words[0]!).slice(0, 2).join('').toUpperCase();
  return (Array.from(words[0]!)[0]! + Array.from(words[1]!)[0]!).toUpperCase();
}

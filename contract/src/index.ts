import * as addresses from './addresses.js';
import * as admin from './admin.js';
import * as auth from './auth.js';
import * as downloads from './downloads.js';
import * as health from './health.js';
import * as images from './images.js';
import * as likes from './likes.js';
import * as presence from './presence.js';
import * as profile from './profile.js';
import * as sharing from './sharing.js';
import * as tags from './tags.js';
import * as templates from './templates.js';
import * as timeline from './timeline.js';
import * as trash from './trash.js';
import * as uploads from './uploads.js';

export * from './call.js';
export * from './common.js';
export { GALLERY_PAGE_SIZE, MAX_PAGE_SIZE } from './images.js';
export { PROFILE_UPLOADS_LIMIT } from './profile.js';
export { MAX_ZIP_IMAGES } from './downloads.js';
export { TRASH_PAGE_SIZE } from './trash.js';
export type { TrashedImage } from './trash.js';
export { addresses, admin, auth, downloads, health, images, likes, presence, profile, sharing, tags, templates, timeline, trash, uploads };
export { MAX_CHECK_FILES, TUS_METADATA, TUS_METHODS, TUS_PATH, UPLOAD_OUTCOME_HEADERS } from './uploads.js';
export type { TusMethodDoc } from './uploads.js';
export type { ImageInfo, TimelineMonth } from './timeline.js';
export type { TokenPayload } from './auth.js';
export type { Profile, Role } from './profile.js';
export type { Image, UploadOutcome } from './images.js';
export type { EmailTemplate } from './templates.js';
export type { AccessType } from './sharing.js';
export type { AddressProof, ProofState } from './addresses.js';
export * as texts from './texts.js';

/** Every call of spec §7, by a stable name. */
export const calls = {
  health: health.health,
  signin: auth.signin,
  signup: auth.signup,
  forgotPassword: auth.forgotPassword,
  resetPassword: auth.resetPassword,
  getAddressProof: addresses.getAddressProof,
  confirmAddress: addresses.confirmAddress,
  releaseAddress: addresses.releaseAddress,
  resendConfirmation: addresses.resendConfirmation,
  getApiProfile: profile.getApiProfile,
  getProfile: profile.getProfile,
  getMe: profile.getMe,
  updateProfile: profile.updateProfile,
  uploadProfileImage: profile.uploadProfileImage,
  getBreadcrumbs: profile.getBreadcrumbs,
  getGridImages: images.getGridImages,
  getGridImagesOld: images.getGridImagesOld,
  getImage: images.getImage,
  getImageNeighbours: images.getImageNeighbours,
  getImageInfo: timeline.getImageInfo,
  getTimeline: timeline.getTimeline,
  getTimelineMonth: timeline.getTimelineMonth,
  getLibrary: images.getLibrary,
  searchImages: images.searchImages,
  deleteImages: images.deleteImages,
  bulkUpload: images.bulkUpload,
  checkUploads: uploads.checkUploads,
  getUploadOutcome: uploads.getUploadOutcome,
  getExistingTags: tags.getExistingTags,
  tagsOfSelection: tags.tagsOfSelection,
  addTags: tags.addTags,
  addUserTags: tags.addUserTags,
  removeTag: tags.removeTag,
  addTagToImage: tags.addTagToImage,
  getUserTags: tags.getUserTags,
  getMyTaggedImages: tags.getMyTaggedImages,
  searchSuggestions: tags.searchSuggestions,
  headerSearchTags: tags.headerSearchTags,
  likeImage: likes.likeImage,
  likeStatus: likes.likeStatus,
  myLikedImages: likes.myLikedImages,
  isUserInPhoto: presence.isUserInPhoto,
  getTaggedUsers: presence.getTaggedUsers,
  markInPhoto: presence.markInPhoto,
  photosUserTaggedIn: presence.photosUserTaggedIn,
  shareAll: sharing.shareAll,
  shareRestricted: sharing.shareRestricted,
  shareImg: sharing.shareImg,
  getSharedImages: sharing.getSharedImages,
  getSharedImagesByLink: sharing.getSharedImagesByLink,
  getSharedWithMe: sharing.getSharedWithMe,
  getUserAccessData: sharing.getUserAccessData,
  updateUserStatus: sharing.updateUserStatus,
  usersISharedWith: sharing.usersISharedWith,
  sharedWithUser: sharing.sharedWithUser,
  listTemplates: templates.listTemplates,
  setDefaultTemplate: templates.setDefaultTemplate,
  createTemplate: templates.createTemplate,
  updateTemplate: templates.updateTemplate,
  listTrash: trash.listTrash,
  restoreTrash: trash.restoreTrash,
  deleteTrashForever: trash.deleteTrashForever,
  emptyTrash: trash.emptyTrash,
  adminTags: admin.adminTags,
  adminMergeTags: admin.adminMergeTags,
  adminUpdateTag: admin.adminUpdateTag,
  createOriginalDownload: downloads.createOriginalDownload,
  createZipDownload: downloads.createZipDownload,
  download: downloads.download,
  linkDownloads: downloads.linkDownloads,
  linkDownloadAll: downloads.linkDownloadAll,
  linkDownloadOriginal: downloads.linkDownloadOriginal,
  getDownloadSettings: downloads.getDownloadSettings,
  setAllowDownloads: downloads.setAllowDownloads,
} as const;

export type CallName = keyof typeof calls;

/** Downloads (originals, zips of a selection, the share-all page and its switch), used by other screens. */
export { DownloadButton } from './components/download-button';
export { LinkDownloads } from './components/link-downloads';
export { LinkDownloadsSwitch } from './components/link-downloads-switch';

/**
 * tus-js-client's browser build (XMLHttpRequest, localStorage), named by path: the package's main
 * entry is its Node build (node:http, URLs kept in a file), which is what the unit tests would get.
 */
export { DetailedError, Upload, defaultOptions } from 'tus-js-client/lib.esm/browser/index.js';
export type { HttpRequest, HttpResponse, PreviousUpload } from 'tus-js-client';

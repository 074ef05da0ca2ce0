/** The browser build of tus-js-client, imported by path (see tus-client.ts); its types are the package's. */
declare module 'tus-js-client/lib.esm/browser/index.js' {
  export * from 'tus-js-client';
}

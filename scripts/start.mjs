// `npm start`: build what is missing or stale, then run the server in this process, so signals
// (Ctrl-C, SIGTERM from a process manager) reach its graceful shutdown directly.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildIfStale, root } from './build-lib.mjs';

buildIfStale();
await import(pathToFileURL(path.join(root, 'server', 'dist', 'main.js')).href);

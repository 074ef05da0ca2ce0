import { buildIfStale } from './build-lib.mjs';

buildIfStale({ force: process.argv.includes('--force') });

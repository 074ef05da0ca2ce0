#!/usr/bin/env node
// photo-library: imports a folder of photos into a Photo Library server (see `photo-library --help`).
import { main } from '../src/main.js';

main(process.argv.slice(2), process.env).then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : error);
    process.exitCode = 1;
  },
);

// @ts-check
import { parseArgs } from 'node:util';

export const USAGE = `Usage: photo-library import <folder> --server <url> [options]

Uploads every photo under <folder> (recursively) to a Photo Library server. Files the server
already has in your library are skipped by their content (SHA-256); the rest are uploaded
resumably (tus): stop at any time (Ctrl-C) and run the same command again to continue where
it stopped — nothing is sent twice.

Options:
  --server <url>     the server, e.g. https://photos.example.com (or PHOTO_SERVER)
  --token <token>    a session token instead of signing in (or PHOTO_TOKEN)
  --email <address>  the account to sign in as (asked when missing; or PHOTO_EMAIL)
  --parallel <n>     files uploaded at once (default 3)
  --dry-run          say what would be uploaded; send no file
  --retry-refused    upload again files the server refused in an earlier run
  --state <file>     where progress is kept (default ~/.config/photo-library/state-….json)
  --json             print the summary as JSON
  -h, --help         this help
The password is asked on the terminal (hidden), or read from PHOTO_PASSWORD.`;

/**
 * @typedef {object} ImportOptions
 * @property {string} folder
 * @property {string} server
 * @property {string | undefined} token
 * @property {string | undefined} email
 * @property {number} parallel
 * @property {boolean} dryRun
 * @property {boolean} retryRefused
 * @property {string | undefined} state
 * @property {boolean} json
 */

export class UsageError extends Error {}

/**
 * @param {string[]} argv
 * @param {NodeJS.ProcessEnv} env
 * @returns {{ command: 'help' } | { command: 'import', options: ImportOptions }}
 */
export function parseCommand(argv, env) {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      server: { type: 'string' },
      token: { type: 'string' },
      email: { type: 'string' },
      parallel: { type: 'string' },
      'dry-run': { type: 'boolean', default: false },
      'retry-refused': { type: 'boolean', default: false },
      state: { type: 'string' },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const [command, folder, ...extra] = positionals;
  if (values.help || command === undefined || command === 'help') return { command: 'help' };
  if (command !== 'import') throw new UsageError(`Unknown command "${command}".`);
  if (!folder) throw new UsageError('Name the folder to import: photo-library import <folder> --server <url>');
  if (extra.length > 0) throw new UsageError(`Unexpected arguments: ${extra.join(' ')}`);
  const server = values.server ?? env['PHOTO_SERVER'];
  if (!server) throw new UsageError('Name the server: --server https://photos.example.com (or set PHOTO_SERVER).');
  let url;
  try {
    url = new URL(server);
  } catch {
    throw new UsageError(`--server must be a URL such as https://photos.example.com, not "${server}".`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError('--server must be an http:// or https:// URL.');
  const parallel = values.parallel === undefined ? 3 : Number(values.parallel);
  if (!Number.isInteger(parallel) || parallel < 1 || parallel > 32) throw new UsageError('--parallel must be a whole number from 1 to 32.');
  return {
    command: 'import',
    options: {
      folder,
      server: url.origin + url.pathname.replace(/\/+$/, ''),
      token: values.token ?? env['PHOTO_TOKEN'] ?? undefined,
      email: values.email ?? env['PHOTO_EMAIL'] ?? undefined,
      parallel,
      dryRun: values['dry-run'] ?? false,
      retryRefused: values['retry-refused'] ?? false,
      state: values.state,
      json: values.json ?? false,
    },
  };
}

// @ts-check
import { UsageError, USAGE, parseCommand } from './args.js';
import { ApiError } from './api.js';
import { describe, runImport } from './import.js';

/**
 * The command line: `photo-library import <folder> --server <url>`. Resolves to the exit code:
 * 0 all done (refused files are reported, not failures), 1 some files failed or an error,
 * 2 bad usage, 130 stopped with Ctrl-C (run again to continue).
 * @param {string[]} argv
 * @param {NodeJS.ProcessEnv} env
 * @returns {Promise<number>}
 */
export async function main(argv, env) {
  let command;
  try {
    command = parseCommand(argv, env);
  } catch (error) {
    if (error instanceof UsageError || (error instanceof Error && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS'))) {
      process.stderr.write(`${error.message}\n\n${USAGE}\n`);
      return 2;
    }
    throw error;
  }
  if (command.command === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const options = command.options;
  const interrupt = new AbortController();
  const onSigint = () => {
    if (interrupt.signal.aborted) process.exit(130);
    process.stderr.write('\nStopping… (what the server has is kept; run the same command again to continue)\n');
    interrupt.abort(new Error('Interrupted'));
  };
  process.on('SIGINT', onSigint);
  try {
    const summary = await runImport(options, {
      env,
      signal: interrupt.signal,
      log: (line) => {
        if (!options.json) process.stderr.write(`${line}\n`);
      },
    });
    process.stdout.write(`${options.json ? JSON.stringify(summary, null, 2) : describe(summary)}\n`);
    if (summary.interrupted) return 130;
    return summary.failed.length > 0 ? 1 : 0;
  } catch (error) {
    const message = error instanceof ApiError && error.status === 401 ? `Sign-in failed: ${error.message}` : error instanceof Error ? error.message : String(error);
    process.stderr.write(`${message}\n`);
    return interrupt.signal.aborted ? 130 : 1;
  } finally {
    process.off('SIGINT', onSigint);
  }
}

// @ts-check
import { createInterface } from 'node:readline/promises';

/**
 * Asks for a line on the terminal (visible).
 * @param {string} question
 */
export async function ask(question) {
  const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: process.stdin.isTTY === true });
  try {
    return (await rl.question(question)).trim();
  } finally {
    rl.close();
  }
}

/**
 * Asks for a secret on the terminal without showing what is typed. Without a terminal (input piped
 * in), the next line of input is taken as it is.
 * @param {string} question
 * @returns {Promise<string>}
 */
export async function askHidden(question) {
  const input = process.stdin;
  if (!input.isTTY) return ask(question);
  process.stderr.write(question);
  input.setRawMode(true);
  input.resume();
  input.setEncoding('utf8');
  return new Promise((resolve, reject) => {
    let secret = '';
    /** @param {string} chunk */
    const onData = (chunk) => {
      for (const char of chunk) {
        if (char === '\r' || char === '\n' || char === '\u0004') {
          done();
          resolve(secret);
          return;
        }
        if (char === '\u0003') {
          done();
          reject(new Error('Cancelled.'));
          return;
        }
        if (char === '\u007f' || char === '\b') secret = secret.slice(0, -1);
        else if (char >= ' ') secret += char;
      }
    };
    const done = () => {
      input.off('data', onData);
      input.setRawMode(false);
      input.pause();
      process.stderr.write('\n');
    };
    input.on('data', onData);
  });
}

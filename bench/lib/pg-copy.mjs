// `COPY … FROM STDIN` with the plain `pg` client (no pg-copy-streams in the project): a submittable
// query that sends the rows `lines()` yields once the server asks for them, with back-pressure.
// Text format: one row per line, columns separated by tabs, NULL as \N.

/**
 * Runs `COPY table (columns) FROM STDIN` on `client`; `batches` is an (async) iterable of arrays of
 * rows (arrays of column values). Resolves to the number of rows the server copied.
 */
export function copyRows(client, table, columns, batches) {
  const sql = `COPY ${table} (${columns.join(', ')}) FROM STDIN`;
  return new Promise((resolve, reject) => {
    let failure;
    let copied = 0;
    const query = {
      submit(connection) {
        connection.query(sql);
      },
      handleCopyInResponse(connection) {
        (async () => {
          try {
            for await (const batch of batches) {
              let text = '';
              for (const row of batch) text += `${row.map(field).join('\t')}\n`;
              connection.sendCopyFromChunk(Buffer.from(text));
              if (connection.stream.writableNeedDrain) await new Promise((done) => connection.stream.once('drain', done));
            }
            connection.endCopyFrom();
          } catch (error) {
            failure = error;
            connection.sendCopyFail(String(error instanceof Error ? error.message : error));
          }
        })();
      },
      handleCommandComplete(message) {
        copied = Number(/\d+$/.exec(message.text ?? '')?.[0] ?? 0);
      },
      handleError(error) {
        failure ??= error;
      },
      handleReadyForQuery() {
        if (failure) reject(failure);
        else resolve(copied);
      },
      handleRowDescription() {},
      handleDataRow() {},
      handleEmptyQuery() {},
      handlePortalSuspended() {},
      handleCopyData() {},
    };
    client.query(query);
  });
}

const SPECIAL = /[\\\t\n\r]/;

function field(value) {
  if (value === null || value === undefined) return '\\N';
  if (typeof value === 'number') return String(value);
  const text = String(value);
  return SPECIAL.test(text) ? text.replace(/[\\\t\n\r]/g, (c) => ({ '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' })[c]) : text;
}

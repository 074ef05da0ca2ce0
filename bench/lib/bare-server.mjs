// Calibration for the gallery numbers: the smallest possible Node HTTP server (no framework, no
// database), answering what /api/health answers. Its latency under the same load is the floor set
// by this machine and the load generator sharing it. BODY_BYTES: answer with a JSON array of about
// that many bytes instead (the soak's floor: an answer the size of its average one).
import http from 'node:http';

const body = process.env.BODY_BYTES ? filler(Number(process.env.BODY_BYTES)) : JSON.stringify({ status: 'ok', database: 'sqlite', version: '0.0.0' });
http
  .createServer((req, res) => {
    // An upload's body is read to its end and dropped before the answer, as a real server reads it.
    req.resume().once('end', () => {
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
      res.end(body);
    });
  })
  .listen(Number(process.env.PORT), '127.0.0.1', () => process.send?.('listening'));

/** A JSON array of gallery-like entries, `bytes` long give or take one entry. */
function filler(bytes) {
  const entries = [];
  let length = 2;
  for (let i = 0; length < bytes; i += 1) {
    const entry = JSON.stringify({ _id: String(i), thumbnail: `/media/thumb/${i}.webp?expires=1800000000&signature=0123456789abcdef0123456789abcdef`, width: 4000, height: 3000 });
    entries.push(entry);
    length += entry.length + 1;
  }
  return `[${entries.join(',')}]`;
}

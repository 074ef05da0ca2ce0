// Calibration for the gallery numbers: the smallest possible Node HTTP server (no framework, no
// database), answering what /api/health answers. Its latency under the same load is the floor set
// by this machine and the load generator sharing it.
import http from 'node:http';

const body = JSON.stringify({ status: 'ok', database: 'sqlite', version: '0.0.0' });
http
  .createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  })
  .listen(Number(process.env.PORT), '127.0.0.1', () => process.send?.('listening'));

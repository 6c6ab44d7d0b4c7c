/**
 * The HTTP ceiling of this machine: Express 5 answering from memory, no database, no auth.
 * `GET /api/ping` answers `{"ok":true}`, `POST /api/echo` parses a JSON body and answers 201; given a JSON file of strings, `GET /api/canned/:i`
 * answers the i-th as a JSON body (the API's own answers, byte for byte), so that the ceiling can
 * also be taken with the same payloads as the API serves.
 */
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import express from 'express';

const canned = process.argv[2] ? (JSON.parse(fs.readFileSync(process.argv[2], 'utf8')) as string[]) : [];
const app = express();
app.disable('x-powered-by');
app.get('/api/ping', (_req, res) => {
  res.json({ ok: true });
});
app.post('/api/echo', express.json(), (req, res) => {
  res.status(201).json({ id: 'x', received: Object.keys(req.body as object).length });
});
app.get('/api/canned/:i', (req, res) => {
  res.set('Content-Type', 'application/json').send(canned[Number(req.params.i)] ?? '{}');
});
const server = app.listen(0, '127.0.0.1', () => {
  process.stdout.write(`Bare Express listening on http://127.0.0.1:${(server.address() as AddressInfo).port}\n`);
});
process.once('SIGTERM', () => server.close(() => process.exit(0)));

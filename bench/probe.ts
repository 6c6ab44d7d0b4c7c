/**
 * The responsiveness probe, in a process of its own: `node bench/probe.ts <url> <token> <path> [everyMs]`
 * asks for `path` every `everyMs` ms (20) on one keep-alive connection until its stdin closes, then
 * prints `{ n, maxMs, over50 }` as one JSON line. In the bench's own process it would also count
 * the bench's pauses (collecting a million-entry book's garbage, building the next import piece) as
 * the server's silence.
 */
import { Client } from './lib/client.ts';
import { since } from './lib/stats.ts';

const [url, token, probePath, every] = process.argv.slice(2);
const everyMs = Number(every ?? 20);
const client = new Client(url!, token);
const samples: number[] = [];
let running = true;
process.stdin.on('end', () => {
  running = false;
});
process.stdin.resume();
process.stdout.write('probing\n');
while (running) {
  const start = process.hrtime.bigint();
  await client.ok('GET', probePath!);
  const ms = since(start);
  samples.push(ms);
  if (ms < everyMs) await new Promise((resolve) => setTimeout(resolve, everyMs - ms));
}
client.close();
process.stdout.write(
  `${JSON.stringify({ n: samples.length, maxMs: Math.max(0, ...samples), over50: samples.filter((x) => x > 50).length })}\n`,
);

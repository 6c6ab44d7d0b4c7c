import http from 'node:http';
import { since, summarize, type Summary } from './stats.ts';

export interface LoadRequest {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface LoadResult {
  requests: number;
  seconds: number;
  /** requests per second over the whole run */
  rate: number;
  latency: Summary;
  failures: number;
  firstFailure?: string;
}

/**
 * A fixed number of requests over `connections` keep-alive connections, each sending its next
 * request as soon as the previous one is answered, cycling through `requests`. Timed to the
 * microsecond (autocannon notices the end of a run on a one-second tick, which rounds short
 * runs up to whole seconds).
 */
export async function load(
  url: string,
  options: { connections: number; amount: number; requests: LoadRequest[] },
): Promise<LoadResult> {
  const base = new URL(url);
  const latencies: number[] = [];
  let next = 0;
  let failures = 0;
  let firstFailure: string | undefined;
  const one = (agent: http.Agent, r: LoadRequest) =>
    new Promise<number>((resolve, reject) => {
      const headers: http.OutgoingHttpHeaders = { ...r.headers };
      if (r.body !== undefined) headers['content-length'] = Buffer.byteLength(r.body);
      const req = http.request(
        { host: base.hostname, port: base.port, method: r.method, path: r.path, headers, agent },
        (res) => {
          res.on('data', () => {});
          res.on('end', () => resolve(res.statusCode ?? 0));
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      if (r.body !== undefined) req.write(r.body);
      req.end();
    });
  const start = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: options.connections }, async () => {
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      try {
        for (let i = next++; i < options.amount; i = next++) {
          const r = options.requests[i % options.requests.length]!;
          const t = process.hrtime.bigint();
          try {
            const status = await one(agent, r);
            if (status < 200 || status > 299) {
              failures += 1;
              firstFailure ??= `${r.method} ${r.path}: ${status}`;
            }
          } catch (error) {
            failures += 1;
            firstFailure ??= `${r.method} ${r.path}: ${(error as Error).message}`;
          }
          latencies.push(since(t));
        }
      } finally {
        agent.destroy();
      }
    }),
  );
  const seconds = since(start) / 1000;
  return {
    requests: options.amount,
    seconds,
    rate: options.amount / seconds,
    latency: summarize(latencies),
    failures,
    ...(firstFailure ? { firstFailure } : {}),
  };
}

/** The run with the median rate of an odd number of runs. */
export function medianByRate(runs: readonly LoadResult[]): LoadResult {
  if (runs.length % 2 === 0) throw new Error('the median of an even number of runs is not one of them');
  return [...runs].sort((a, b) => a.rate - b.rate)[(runs.length - 1) / 2]!;
}

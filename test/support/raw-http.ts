import http from 'node:http';
import { expect } from 'vitest';

/** Requests with any Host header, and the error shape every refusal has (the app's HTTP tests). */

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  body: any;
}

/** node:http, so that the Host header can be anything (fetch always sends the real one). */
export function rawRequest(
  port: number,
  options: { method?: string; path?: string; headers?: Record<string, string>; body?: string | Buffer } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method: options.method ?? 'GET',
        path: options.path ?? '/',
        headers: options.headers ?? {},
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let body: unknown;
          try {
            body = text ? JSON.parse(text) : undefined;
          } catch {
            body = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, body });
        });
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

/** CONTRACT §3: JSON `{ detail, code?, errors? }`, nothing else, and no trace of the implementation. */
export function expectErrorShape(
  res: { status: number; text: string; body: any; contentType: string | null | undefined },
  status: number,
  code?: string,
): void {
  expect(res.status).toBe(status);
  expect(res.contentType).toMatch(/^application\/json/);
  expect(typeof res.body?.detail).toBe('string');
  for (const key of Object.keys(res.body)) expect(['detail', 'code', 'errors']).toContain(key);
  if (code !== undefined) expect(res.body.code).toBe(code);
  expect(res.text).not.toMatch(/\n\s+at |node_modules|\.ts:\d+|Error:|SqliteError|SELECT |INSERT /);
}

export const asError = (r: RawResponse) => ({ ...r, contentType: r.headers['content-type'] });
export const fetched = (r: { status: number; text: string; body: any; headers: Headers }) => ({
  ...r,
  contentType: r.headers.get('content-type'),
});

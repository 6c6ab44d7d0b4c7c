import http from 'node:http';

export interface Reply {
  status: number;
  text: string;
  headers: http.IncomingHttpHeaders;
}

export class HttpError extends Error {
  readonly status: number;
  constructor(method: string, path: string, reply: Reply) {
    super(`${method} ${path}: ${reply.status} ${reply.text.slice(0, 300)}`);
    this.status = reply.status;
  }
}

/**
 * A keep-alive HTTP/1.1 client on node:http: less overhead per request than fetch, so the
 * figures are the server's, not the client's.
 */
export class Client {
  readonly base: URL;
  token: string | undefined;
  private readonly agent: http.Agent;

  constructor(url: string, token?: string, maxSockets = 1) {
    this.base = new URL(url);
    this.token = token;
    this.agent = new http.Agent({ keepAlive: true, maxSockets });
  }

  /** One request; a keep-alive socket the server closed while idle is retried once on a new one. */
  async request(
    method: string,
    path: string,
    body?: unknown,
    contentType = 'application/json',
    timeoutMs = 600_000,
  ): Promise<Reply> {
    try {
      return await this.send(method, path, body, contentType, timeoutMs);
    } catch (error) {
      if ((error as { reusedSocket?: boolean }).reusedSocket)
        return this.send(method, path, body, contentType, timeoutMs);
      throw error;
    }
  }

  private send(method: string, path: string, body: unknown, contentType: string, timeoutMs: number): Promise<Reply> {
    const payload =
      body === undefined
        ? undefined
        : typeof body === 'string' || body instanceof Uint8Array
          ? body
          : JSON.stringify(body);
    const headers: http.OutgoingHttpHeaders = {};
    if (this.token) headers.authorization = `Bearer ${this.token}`;
    if (payload !== undefined) {
      headers['content-type'] = contentType;
      headers['content-length'] = Buffer.byteLength(payload);
    }
    return new Promise((resolve, reject) => {
      const req = http.request(
        {
          host: this.base.hostname,
          port: this.base.port,
          method,
          path,
          headers,
          agent: this.agent,
          timeout: timeoutMs,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              text: Buffer.concat(chunks).toString('utf8'),
              headers: res.headers,
            }),
          );
          res.on('error', reject);
        },
      );
      req.on('timeout', () => req.destroy(new Error(`${method} ${path}: timed out`)));
      req.on('error', (error) => reject(Object.assign(error, { reusedSocket: req.reusedSocket })));
      if (payload !== undefined) req.write(payload);
      req.end();
    });
  }

  /** The parsed JSON answer; anything but the expected status throws. */
  async json<T = any>(
    method: string,
    path: string,
    body?: unknown,
    expect: number | number[] = [200, 201],
  ): Promise<T> {
    const reply = await this.request(method, path, body);
    const ok = Array.isArray(expect) ? expect.includes(reply.status) : reply.status === expect;
    if (!ok) throw new HttpError(method, path, reply);
    return (reply.text ? JSON.parse(reply.text) : undefined) as T;
  }

  /** A request that must answer 2xx; resolves to nothing (the body is read and dropped). */
  async ok(method: string, path: string, body?: unknown, contentType?: string): Promise<Reply> {
    const reply = await this.request(method, path, body, contentType);
    if (reply.status < 200 || reply.status > 299) throw new HttpError(method, path, reply);
    return reply;
  }

  close(): void {
    this.agent.destroy();
  }
}

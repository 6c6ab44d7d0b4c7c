import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A small Ollama server for tests that speaks the real HTTP protocol: `/api/tags`, and `/api/chat`
 * streaming NDJSON lines with a final `"done": true`, tool calls as Ollama sends them, and errors
 * as JSON `{ "error": … }` with the real statuses. Each chat request is answered by the next step
 * of a script; a step may hold the stream open until the test releases it.
 */

interface FakeChunk {
  content?: string;
  tool_calls?: { function: { name: string; arguments: Record<string, unknown> } }[];
  /** Wait for this before sending the chunk (a test-controlled gate). */
  before?: Promise<unknown>;
  /** Send an error line mid-stream, as Ollama does when generation fails. */
  error?: string;
}

export type FakeStep =
  { chunks: FakeChunk[] | ((request: ChatRequestBody) => FakeChunk[]) } | { status: number; error: string };

export interface ChatRequestBody {
  model: string;
  messages: { role: string; content: string; tool_calls?: unknown[]; tool_name?: string }[];
  tools?: { function: { name: string } }[];
  stream?: boolean;
}

export class FakeOllama {
  url = '';
  readonly requests: ChatRequestBody[] = [];
  models: string[] = ['qwen2.5:3b'];
  private steps: FakeStep[] = [];
  private server: http.Server | undefined;
  private closedEarly: (() => void)[] = [];
  /** How many chat streams the client closed before the final done line. */
  abortedStreams = 0;

  script(...steps: FakeStep[]): void {
    this.steps.push(...steps);
  }

  /** Resolves when a chat stream is closed by its client before it was done. */
  nextAbort(): Promise<void> {
    return new Promise((resolve) => this.closedEarly.push(resolve));
  }

  async start(): Promise<void> {
    this.server = http.createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify(body));
    };
    if (req.method === 'GET' && req.url === '/api/tags') {
      json(200, {
        models: this.models.map((name) => ({
          name,
          model: name,
          modified_at: '2026-01-01T00:00:00Z',
          size: 1,
          digest: 'x',
          details: {},
        })),
      });
      return;
    }
    if (req.method !== 'POST' || req.url !== '/api/chat') {
      res.writeHead(404, { 'Content-Type': 'text/plain' });
      res.end('404 page not found');
      return;
    }
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ChatRequestBody;
    this.requests.push(body);
    if (!this.models.includes(body.model)) {
      json(404, { error: `model "${body.model}" not found, try pulling it first` });
      return;
    }
    const step = this.steps.shift();
    if (!step) {
      json(500, { error: 'the fake has no scripted answer left' });
      return;
    }
    if ('error' in step) {
      json(step.status, { error: step.error });
      return;
    }
    res.writeHead(200, { 'Content-Type': 'application/x-ndjson' });
    let done = false;
    res.on('close', () => {
      if (!done) {
        this.abortedStreams += 1;
        for (const resolve of this.closedEarly.splice(0)) resolve();
      }
    });
    const line = (message: Record<string, unknown>, isDone: boolean, extra: Record<string, unknown> = {}) =>
      res.write(
        JSON.stringify({
          model: body.model,
          created_at: new Date().toISOString(),
          message: { role: 'assistant', content: '', ...message },
          done: isDone,
          ...extra,
        }) + '\n',
      );
    const script = typeof step.chunks === 'function' ? step.chunks(body) : step.chunks;
    for (const chunk of script) {
      if (chunk.before) await chunk.before;
      if (res.destroyed) return;
      if (chunk.error !== undefined) {
        done = true;
        res.end(JSON.stringify({ error: chunk.error }) + '\n');
        return;
      }
      line({ content: chunk.content ?? '', ...(chunk.tool_calls ? { tool_calls: chunk.tool_calls } : {}) }, false);
    }
    if (res.destroyed) return;
    done = true;
    line({}, true, { done_reason: 'stop', total_duration: 1000, eval_count: script.length });
    res.end();
  }
}

/** A promise with its resolve function, to gate a scripted chunk on a test event. */
export function gate(): { promise: Promise<void>; open: () => void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

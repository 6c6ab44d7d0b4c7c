import { Ollama, type Message, type Tool } from 'ollama';

/** One streamed piece of a model answer. */
interface ModelChunk {
  content: string;
  toolCalls: { name: string; arguments: Record<string, unknown> }[];
  done: boolean;
}

export interface ModelStream extends AsyncIterable<ModelChunk> {
  abort(): void;
}

export type ChatMessage = Message;
export type ToolDefinition = Tool;

/** The advisor's port to a language model; the Ollama adapter below is the one implementation. */
export interface ChatModel {
  readonly name: string;
  readonly host: string;
  /** Whether the server answers and has the model. */
  status(): Promise<{ available: boolean; detail: string }>;
  /** Starts a streamed answer; throws ModelUnavailable when the server or the model is missing. */
  chat(messages: ChatMessage[], tools: ToolDefinition[]): Promise<ModelStream>;
}

/** The model cannot be reached or is not pulled: the caller falls back to the built-in advisor. */
export class ModelUnavailable extends Error {
  /** why: no model server answers, or it lacks the model */
  readonly reason: 'not-running' | 'not-pulled';
  /** the command that makes the model available (`ollama serve`, `ollama pull <model>`) */
  readonly fix: string;

  constructor(message: string, reason: 'not-running' | 'not-pulled', fix: string) {
    super(message);
    this.name = 'ModelUnavailable';
    this.reason = reason;
    this.fix = fix;
  }
}

function isUnreachable(error: unknown): boolean {
  const text = `${(error as Error)?.message ?? ''} ${(error as { cause?: { code?: string } })?.cause?.code ?? ''}`;
  return /ECONNREFUSED|ENOTFOUND|EHOSTUNREACH|ECONNRESET|fetch failed|UND_ERR|timeout|aborted/i.test(text);
}

/** Ollama's "model not found" answers (a 404 with `model "x" not found, try pulling it first`). */
function isMissingModel(error: unknown): boolean {
  const e = error as { status_code?: number; message?: string };
  return e?.status_code === 404 || /not found/i.test(e?.message ?? '');
}

export class OllamaModel implements ChatModel {
  readonly name: string;
  readonly host: string;
  private readonly connectTimeoutMs: number;

  constructor(host: string, name: string, connectTimeoutMs = 10_000) {
    this.host = host;
    this.name = name;
    this.connectTimeoutMs = connectTimeoutMs;
  }

  private client(signal?: AbortSignal): Ollama {
    return new Ollama({
      host: this.host,
      fetch: (input, init) =>
        fetch(input, {
          ...init,
          signal: init?.signal && signal ? AbortSignal.any([init.signal, signal]) : (init?.signal ?? signal),
        }),
    });
  }

  async status(): Promise<{ available: boolean; detail: string }> {
    try {
      const { models } = await this.client(AbortSignal.timeout(3000)).list();
      const names = new Set(models.flatMap((m) => [m.name, m.model, m.name.replace(/:latest$/, '')]));
      if (names.has(this.name) || names.has(`${this.name}:latest`))
        return { available: true, detail: `${this.name} is ready` };
      return { available: false, detail: `the model ${this.name} is not pulled; run: ollama pull ${this.name}` };
    } catch {
      return { available: false, detail: `no Ollama server answers at ${this.host}; start it with: ollama serve` };
    }
  }

  async chat(messages: ChatMessage[], tools: ToolDefinition[]): Promise<ModelStream> {
    // The timeout covers only the wait for the answer to start, not the whole stream.
    const connect = new AbortController();
    const timer = setTimeout(() => connect.abort(), this.connectTimeoutMs);
    let stream;
    try {
      stream = await this.client(connect.signal).chat({
        model: this.name,
        messages,
        tools,
        stream: true,
        options: { temperature: 0.2 },
      });
    } catch (error) {
      if (isMissingModel(error))
        throw new ModelUnavailable(
          `the model ${this.name} is not pulled; run: ollama pull ${this.name}`,
          'not-pulled',
          `ollama pull ${this.name}`,
        );
      if (isUnreachable(error))
        throw new ModelUnavailable(
          `no Ollama server answers at ${this.host}; start it with: ollama serve`,
          'not-running',
          'ollama serve',
        );
      throw error;
    } finally {
      clearTimeout(timer);
    }
    return {
      abort: () => stream.abort(),
      async *[Symbol.asyncIterator]() {
        for await (const part of stream) {
          yield {
            content: part.message?.content ?? '',
            toolCalls: (part.message?.tool_calls ?? []).map((c) => ({
              name: c.function.name,
              arguments: (c.function.arguments ?? {}) as Record<string, unknown>,
            })),
            done: part.done,
          };
        }
      },
    };
  }
}

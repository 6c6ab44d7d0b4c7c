/**
 * Flow control of a streamed job's output between the job worker and the server's thread, over a
 * SharedArrayBuffer both hold. The worker may wait synchronously (Atomics.wait: it is not the event
 * loop); it waits while MAX_PIECES_IN_FLIGHT pieces have not yet been written out to the client,
 * so a slow download holds a few pieces in memory rather than the whole text, and it stops when the
 * request is gone.
 */

export const MAX_PIECES_IN_FLIGHT = 4;
/** A client that takes no piece for this long is dropped, so that the jobs queued behind go on. */
export const STALLED_CLIENT_MS = 60_000;

const IN_FLIGHT = 0;
const STOPPED = 1;

export class PieceFlow {
  readonly buffer: SharedArrayBuffer;
  private readonly state: Int32Array;

  constructor(buffer: SharedArrayBuffer = new SharedArrayBuffer(2 * Int32Array.BYTES_PER_ELEMENT)) {
    this.buffer = buffer;
    this.state = new Int32Array(buffer);
  }

  /** Worker: waits until one more piece may be sent, then counts it as sent. Throws once the request is gone or stalled. */
  reserve(stallMs = STALLED_CLIENT_MS): void {
    const deadline = Date.now() + stallMs;
    for (;;) {
      if (Atomics.load(this.state, STOPPED) !== 0) throw stopped('the request was closed');
      const inFlight = Atomics.load(this.state, IN_FLIGHT);
      if (inFlight < MAX_PIECES_IN_FLIGHT) break;
      const left = deadline - Date.now();
      if (left <= 0) throw stopped(`the client took nothing for ${stallMs / 1000} s`);
      Atomics.wait(this.state, IN_FLIGHT, inFlight, left);
    }
    Atomics.add(this.state, IN_FLIGHT, 1);
  }

  /** Server: a piece was written out; the worker may send another. */
  taken(): void {
    Atomics.sub(this.state, IN_FLIGHT, 1);
    Atomics.notify(this.state, IN_FLIGHT);
  }

  /** Server: the request is gone; the worker stops at its next piece. */
  stop(): void {
    Atomics.store(this.state, STOPPED, 1);
    Atomics.notify(this.state, IN_FLIGHT);
  }
}

function stopped(why: string): Error {
  const error = new Error(`streamed job stopped: ${why}`);
  error.name = 'JobStopped';
  return error;
}

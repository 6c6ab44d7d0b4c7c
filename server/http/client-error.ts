import http from 'node:http';
import type { Duplex } from 'node:stream';

/**
 * Requests Node's HTTP parser refuses before the app sees them (headers or URL over 16 KiB, broken
 * HTTP) get the JSON error shape too, instead of Node's bare status line.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  // As Node's own handler: answer only on a connection that has no answer under way.
  const state = socket as Duplex & { _httpMessage?: unknown; bytesWritten?: number };
  const busy = Boolean(state._httpMessage) || (state.bytesWritten ?? 0) > 0;
  if (error.code === 'ECONNRESET' || !socket.writable || busy) {
    socket.destroy();
    return;
  }
  const [status, code, detail] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'HEADERS_TOO_LARGE', 'The request headers or URL are too large']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'REQUEST_TIMEOUT', 'The request took too long to arrive']
        : [400, 'MALFORMED_REQUEST', 'The request is not valid HTTP'];
  const body = JSON.stringify({ detail, code });
  socket.end(
    `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

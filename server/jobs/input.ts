import { isMarkedAsUntransferable } from 'node:worker_threads';
import type { DomainError } from '../domain/errors.ts';

/**
 * The UTF-8 text of a job's input bytes (a request body, an upload), or `invalid()` if they are not
 * UTF-8. The bytes are consumed: their memory is given back once decoded (a 100,000-row statement is
 * ~12 MB), even while something else still refers to their buffer (Node's handler of the message
 * that brought them to the worker).
 */
export function takeUtf8(input: { bytes: Uint8Array }, invalid: () => DomainError): string {
  const { bytes } = input;
  input.bytes = new Uint8Array();
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw invalid();
  }
  ownBuffer(bytes)?.transfer(0);
  return text;
}

/** The buffer of `bytes` when they are all of it and it may be detached (not one of Node's shared pools). */
export function ownBuffer(bytes: Uint8Array): ArrayBuffer | undefined {
  const { buffer } = bytes;
  return buffer instanceof ArrayBuffer &&
    bytes.byteOffset === 0 &&
    bytes.byteLength === buffer.byteLength &&
    bytes.byteLength > 0 &&
    !isMarkedAsUntransferable(buffer)
    ? buffer
    : undefined;
}

/**
 * Receipts' bytes through the relay (docs/sync.md, "Receipts' files").
 *
 * A stored file is cut into chunks of 512 KiB (migration 0020's `attachment_chunks`); each chunk is
 * one change message whose row is `<sha256> <chunk>`. The change log keeps only the chunk's name
 * (`{sha256, chunk, chunks, size_bytes}`); the bytes are read from the data folder when the message
 * is sent, base64 in its value, and the message is sealed like any other (AES-256-GCM), so the relay
 * only ever holds ciphertext. A chunk's message is made when the file's row is made on this device,
 * never when it arrives from another, so a file goes to the group once (twice only when two devices
 * attach the same file while apart).
 *
 * A received chunk is written to `<user's folder>/.incoming/<sha256>.<chunk>` before its message is
 * logged (without its bytes); once a file's chunks are all there they are joined, their SHA-256
 * checked against the file's name, and the file put in its place; chunks that do not hash to it are
 * dropped. Until then the attachment answers `waiting_for_sync`.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ATTACHMENT_FILE_LIMIT_BYTES } from '../../contract/attachments.ts';
import { SYNC_PAGE, type SyncMessage } from '../../sync/messages.ts';

/** A chunk's bytes: base64 of 512 KiB is about 683 KiB, under the relay's 1 MiB an envelope. */
export const CHUNK_BYTES = 512 * 1024;
/** The chunks of the largest file the app takes (20 MiB). */
export const MAX_CHUNKS = Math.ceil(ATTACHMENT_FILE_LIMIT_BYTES / CHUNK_BYTES);
export const CHUNKS_DATASET = 'attachment_chunks';

const SHA256 = /^[0-9a-f]{64}$/;
const INCOMING_NAME = /^([0-9a-f]{64})\.(\d{1,2})$/;

interface ChunkRef {
  sha256: string;
  chunk: number;
  chunks: number;
  size: number;
}

/** A chunk message's name, checked: the hash, an index below its count, the count its size makes. */
function chunkRef(value: Record<string, unknown>): ChunkRef | null {
  const sha256 = String(value.sha256);
  const chunk = Number(value.chunk);
  const chunks = Number(value.chunks);
  const size = Number(value.size_bytes);
  if (!SHA256.test(sha256) || !Number.isSafeInteger(size) || size <= 0 || size > ATTACHMENT_FILE_LIMIT_BYTES)
    return null;
  if (!Number.isInteger(chunk) || chunks !== Math.ceil(size / CHUNK_BYTES) || chunk < 0 || chunk >= chunks) return null;
  return { sha256, chunk, chunks, size };
}

function parse(message: SyncMessage): Record<string, unknown> | null {
  if (message.dataset !== CHUNKS_DATASET || message.column !== 'row') return null;
  try {
    const value: unknown = JSON.parse(message.value);
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** A chunk's length: CHUNK_BYTES, the last one what is left. */
function lengthOf(ref: ChunkRef): number {
  return Math.min(CHUNK_BYTES, ref.size - ref.chunk * CHUNK_BYTES);
}

/** A received message as the log keeps it: a chunk's without its bytes. */
export function withoutBytes(message: SyncMessage): SyncMessage {
  const value = parse(message);
  if (value === null || !('bytes' in value)) return message;
  const { bytes: _bytes, ...name } = value;
  return { ...message, value: JSON.stringify(name) };
}

/** The transfer of one user's files: their folder in the data folder (`<data>/attachments/<user id>`). */
export class AttachmentTransfer {
  private readonly dir: string;
  private readonly incoming: string;

  constructor(dir: string) {
    this.dir = dir;
    this.incoming = path.join(dir, '.incoming');
  }

  /**
   * The messages to send with each chunk's bytes read in, up to about a page of bytes (the relay's
   * 4 MiB) and one message past it, so that the sync sends a page and knows more is left.
   */
  withBytes(messages: readonly SyncMessage[]): SyncMessage[] {
    const out: SyncMessage[] = [];
    let bytes = 0;
    for (const message of messages) {
      const full = this.readIn(message);
      out.push(full);
      if (bytes >= SYNC_PAGE.bytes) break;
      bytes += full.value.length;
    }
    return out;
  }

  private readIn(message: SyncMessage): SyncMessage {
    const value = parse(message);
    const ref = value && chunkRef(value);
    if (!value || !ref) return message;
    const length = lengthOf(ref);
    const stored = path.join(this.dir, ref.sha256);
    let bytes: Buffer | null = null;
    if (fs.existsSync(stored)) {
      const fd = fs.openSync(stored, 'r');
      try {
        bytes = Buffer.alloc(length);
        if (fs.readSync(fd, bytes, 0, length, ref.chunk * CHUNK_BYTES) !== length) bytes = null;
      } finally {
        fs.closeSync(fd);
      }
    } else {
      const part = path.join(this.incoming, `${ref.sha256}.${ref.chunk}`);
      if (fs.existsSync(part)) bytes = fs.readFileSync(part);
    }
    // a file deleted since (its row's deletion follows) goes without bytes: nothing waits for it
    if (bytes === null || bytes.length !== length) return message;
    return { ...message, value: JSON.stringify({ ...value, bytes: bytes.toString('base64') }) };
  }

  /**
   * Writes the bytes of each received chunk of a file not stored here yet to the incoming folder;
   * answers the messages without their bytes (as the log keeps them). A chunk whose name or length
   * is wrong is not written.
   */
  receive(messages: readonly SyncMessage[]): SyncMessage[] {
    return messages.map((message) => {
      const value = parse(message);
      const ref = value && chunkRef(value);
      if (value && ref && typeof value.bytes === 'string' && !fs.existsSync(path.join(this.dir, ref.sha256))) {
        const bytes = Buffer.from(value.bytes, 'base64');
        if (bytes.length === lengthOf(ref)) {
          fs.mkdirSync(this.incoming, { recursive: true, mode: 0o700 });
          const part = path.join(this.incoming, `${ref.sha256}.${ref.chunk}`);
          fs.writeFileSync(`${part}.partial`, bytes, { mode: 0o600 });
          fs.renameSync(`${part}.partial`, part);
          fs.writeFileSync(path.join(this.incoming, `${ref.sha256}.count`), String(ref.chunks), { mode: 0o600 });
        }
      }
      return withoutBytes(message);
    });
  }

  /**
   * Puts every file whose chunks are all here in its place, if they hash to its name; answers the
   * hashes placed. Chunks of a file already stored, or that hash to something else, are dropped.
   */
  assemble(): string[] {
    if (!fs.existsSync(this.incoming)) return [];
    const parts = new Map<string, number[]>();
    for (const name of fs.readdirSync(this.incoming)) {
      const m = INCOMING_NAME.exec(name);
      if (m) parts.set(m[1]!, [...(parts.get(m[1]!) ?? []), Number(m[2])]);
    }
    const placed: string[] = [];
    for (const [sha256, chunks] of parts) {
      const target = path.join(this.dir, sha256);
      const countFile = path.join(this.incoming, `${sha256}.count`);
      const count = fs.existsSync(countFile) ? Number(fs.readFileSync(countFile, 'utf8')) : NaN;
      const drop = () => {
        for (const c of chunks) fs.rmSync(path.join(this.incoming, `${sha256}.${c}`), { force: true });
        fs.rmSync(countFile, { force: true });
      };
      if (fs.existsSync(target)) {
        drop();
        continue;
      }
      if (!(count > 0 && count <= MAX_CHUNKS) || chunks.length < count) continue;
      const whole = Buffer.concat(
        Array.from({ length: count }, (_, i) => fs.readFileSync(path.join(this.incoming, `${sha256}.${i}`))),
      );
      if (crypto.createHash('sha256').update(whole).digest('hex') === sha256) {
        const temp = path.join(this.incoming, `${sha256}.joined`);
        fs.writeFileSync(temp, whole, { mode: 0o600 });
        fs.renameSync(temp, target);
        placed.push(sha256);
      }
      drop();
    }
    return placed;
  }
}

/**
 * The sync wire format: @actual-app/crdt's protobuf messages, never a format of our own.
 *
 * - `Message {dataset, row, column, value}`: one change (a whole row as JSON, or its deletion).
 * - `MessageEnvelope {timestamp, isEncrypted, content}`: always encrypted here; `content` is an
 *   `EncryptedData {iv, authTag, data}` of AES-256-GCM over the `Message`, its timestamp the AAD.
 * - `SyncRequest {messages, fileId, groupId, keyId, since}`: `fileId` carries the caller's node id
 *   (its ledger on its device), so that the relay leaves the caller's own envelopes out of the answer.
 * - `SyncResponse {messages, merkle}`: what the caller lacks since `since`, and the group's trie as JSON.
 */
import {
  EncryptedDataSchema,
  MessageEnvelopeSchema,
  MessageSchema,
  SyncRequestSchema,
  SyncResponseSchema,
  create,
  fromBinary,
  toBinary,
  type MessageEnvelope,
  type SyncRequest,
  type SyncResponse,
} from '@actual-app/crdt';
import { DomainError } from '../domain/errors.ts';
import { parseTimestamp } from './clock.ts';
import { open, seal, type GroupKey, type Sealed } from './crypto.ts';

export type { MessageEnvelope, SyncRequest, SyncResponse };

/** One change in plain text: the row `row` of table `dataset`, `column` "row" (value: the row's JSON) or "deleted". */
export interface SyncMessage {
  timestamp: string;
  dataset: string;
  row: string;
  column: string;
  value: string;
}

/**
 * The sizes both ends keep to. A request or an answer carries at most one page: `messages`
 * envelopes, and stops after the envelope that brings its content to `bytes`. One envelope's
 * content is at most `envelopeBytes` (a change of about a megabyte: an entry of thousands of lines).
 */
export const SYNC_PAGE = { messages: 1000, bytes: 4 * 1024 * 1024, envelopeBytes: 1024 * 1024 } as const;

/** The relay's limit on a sync request's body: a full page and one envelope past it, with room to spare. */
export const SYNC_BODY_LIMIT = '16mb';

/** Whether a list of envelopes is a whole page (the other side may hold more after its last one). */
export function isFullPage(envelopes: readonly MessageEnvelope[]): boolean {
  if (envelopes.length >= SYNC_PAGE.messages) return true;
  let bytes = 0;
  for (const envelope of envelopes) bytes += envelope.content.length;
  return bytes >= SYNC_PAGE.bytes;
}

/** The envelopes of `list` that make one page, in order. */
export function firstPage<T extends { content: Uint8Array }>(list: readonly T[]): T[] {
  const page: T[] = [];
  let bytes = 0;
  for (const item of list) {
    if (page.length >= SYNC_PAGE.messages || bytes >= SYNC_PAGE.bytes) break;
    page.push(item);
    bytes += item.content.length;
  }
  return page;
}

export function encryptMessage(group: GroupKey, message: SyncMessage): MessageEnvelope {
  const plain = toBinary(
    MessageSchema,
    create(MessageSchema, { dataset: message.dataset, row: message.row, column: message.column, value: message.value }),
  );
  const sealed = seal(group.key, message.timestamp, plain);
  return create(MessageEnvelopeSchema, {
    timestamp: message.timestamp,
    isEncrypted: true,
    content: toBinary(EncryptedDataSchema, create(EncryptedDataSchema, sealed)),
  });
}

function tampered(why: string): DomainError {
  return new DomainError(
    'SYNC_TAMPERED',
    `A change from the relay was refused (${why}); nothing of this sync was applied`,
  );
}

/** The message an envelope holds; SYNC_TAMPERED when it is not encrypted, not authentic or not well formed. */
export function decryptEnvelope(group: GroupKey, envelope: MessageEnvelope): SyncMessage {
  if (!envelope.isEncrypted) throw tampered('it was not encrypted');
  if (parseTimestamp(envelope.timestamp) === null) throw tampered('its timestamp is malformed');
  let plain: Buffer;
  try {
    const sealed = fromBinary(EncryptedDataSchema, envelope.content);
    plain = open(group.key, envelope.timestamp, sealed);
  } catch (error) {
    if (error instanceof DomainError) throw error;
    throw tampered('its content is not encrypted data');
  }
  let message;
  try {
    message = fromBinary(MessageSchema, plain);
  } catch {
    throw tampered('its content is not a message');
  }
  return {
    timestamp: envelope.timestamp,
    dataset: message.dataset,
    row: message.row,
    column: message.column,
    value: message.value,
  };
}

export interface SyncRequestFields {
  groupId: string;
  keyId: string;
  /** Send me what I lack with timestamps after this ('' for all). */
  since: string;
  /** The caller's node id, whose envelopes the relay leaves out of its answer; '' for none left out. */
  node: string;
  messages: MessageEnvelope[];
}

export function encodeSyncRequest(fields: SyncRequestFields): Uint8Array {
  return toBinary(
    SyncRequestSchema,
    create(SyncRequestSchema, {
      groupId: fields.groupId,
      keyId: fields.keyId,
      since: fields.since,
      fileId: fields.node,
      messages: fields.messages,
    }),
  );
}

/** A SyncRequest's bytes read; MALFORMED_PROTOBUF when they are not one. */
export function decodeSyncRequest(bytes: Uint8Array): SyncRequestFields {
  let request: SyncRequest;
  try {
    request = fromBinary(SyncRequestSchema, bytes);
  } catch {
    throw new DomainError('MALFORMED_PROTOBUF', 'The request body is not a protobuf SyncRequest');
  }
  return {
    groupId: request.groupId,
    keyId: request.keyId,
    since: request.since,
    node: request.fileId,
    messages: request.messages,
  };
}

export function encodeSyncResponse(messages: MessageEnvelope[], merkleJson: string): Uint8Array {
  return toBinary(SyncResponseSchema, create(SyncResponseSchema, { messages, merkle: merkleJson }));
}

/** A SyncResponse's bytes read; SYNC_BAD_ANSWER when they are not one. */
export function decodeSyncResponse(bytes: Uint8Array): { messages: MessageEnvelope[]; merkle: string } {
  try {
    const response = fromBinary(SyncResponseSchema, bytes);
    return { messages: response.messages, merkle: response.merkle };
  } catch {
    throw new DomainError('SYNC_BAD_ANSWER', 'The relay answered something that is not a sync response');
  }
}

/** A MessageEnvelope with the given fields (the relay answers stored rows with it). */
export function envelope(timestamp: string, isEncrypted: boolean, content: Uint8Array): MessageEnvelope {
  return create(MessageEnvelopeSchema, { timestamp, isEncrypted, content });
}

/** A sealed value (the key test) as the relay keeps it: a protobuf EncryptedData in base64. */
export function sealedToBase64(sealed: Sealed): string {
  return Buffer.from(toBinary(EncryptedDataSchema, create(EncryptedDataSchema, sealed))).toString('base64');
}

/** The key test read back; SYNC_BAD_ANSWER when it is not an EncryptedData. */
export function sealedFromBase64(text: string): Sealed {
  try {
    const { iv, authTag, data } = fromBinary(EncryptedDataSchema, Buffer.from(text, 'base64'));
    return { iv, authTag, data };
  } catch {
    throw new DomainError('SYNC_BAD_ANSWER', 'The relay answered a key test that is not encrypted data');
  }
}

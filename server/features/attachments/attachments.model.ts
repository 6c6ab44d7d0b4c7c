/** A file attached to an entry or a bank line, and what it can be attached to. */
export interface Attachment {
  id: string;
  entryId: string | null;
  bankTransactionId: string | null;
  sha256: string;
  fileName: string;
  contentType: string;
  sizeBytes: number;
  createdAt: string;
}

export type AttachmentTarget = { kind: 'entry'; id: string } | { kind: 'bank_transaction'; id: string };

import type { AttachmentDto } from '../../../server/contract/attachments.ts';
import { json, send } from './http.ts';

export type { AttachmentDto };
export {
  ATTACHMENT_FILE_LIMIT_BYTES,
  ATTACHMENTS_PER_TARGET,
  ATTACHMENT_COUNT_IDS_MAX,
} from '../../../server/contract/attachments.ts';

/** What files attach to: an entry, or a bank line. */
export type AttachmentTarget = { kind: 'entry' | 'bank_transaction'; id: string };

const base = (target: AttachmentTarget) =>
  `/api/${target.kind === 'entry' ? 'entries' : 'bank-transactions'}/${encodeURIComponent(target.id)}/attachments`;

export async function listAttachments(target: AttachmentTarget): Promise<AttachmentDto[]> {
  return (await json<{ items: AttachmentDto[] }>('GET', base(target))).items;
}

export function uploadAttachment(target: AttachmentTarget, file: File): Promise<AttachmentDto> {
  const form = new FormData();
  form.set('file', file, file.name);
  return json('POST', base(target), { form });
}

export function deleteAttachment(id: string): Promise<void> {
  return json('DELETE', `/api/attachments/${encodeURIComponent(id)}`);
}

/** The file's bytes, as the server typed them. */
export async function attachmentBlob(id: string): Promise<Blob> {
  const response = await send('GET', `/api/attachments/${encodeURIComponent(id)}`, {
    query: { disposition: 'inline' },
  });
  return response.blob();
}

/** How many files each entry and bank line holds (those with none are left out). */
export function attachmentCounts(
  entryIds: readonly string[],
  bankTransactionIds: readonly string[] = [],
): Promise<{ entries: Record<string, number>; bank_transactions: Record<string, number> }> {
  return json('GET', '/api/attachments/counts', {
    query: {
      entry_ids: entryIds.join(',') || undefined,
      bank_transaction_ids: bankTransactionIds.join(',') || undefined,
    },
  });
}

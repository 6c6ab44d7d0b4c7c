import { answer, api, multipartFile, type Answer, type Schemas } from './client.ts';

export type AttachmentDto = Schemas['Attachment'];
export type AttachmentCounts = Answer<'/api/attachments/counts', 'get'>;
export {
  ATTACHMENT_FILE_LIMIT_BYTES,
  ATTACHMENTS_PER_TARGET,
  ATTACHMENT_COUNT_IDS_MAX,
} from '../../../server/contract/attachments.ts';

/** What files attach to: an entry, or a bank line. */
export type AttachmentTarget = { kind: 'entry' | 'bank_transaction'; id: string };

export async function listAttachments(target: AttachmentTarget): Promise<AttachmentDto[]> {
  const path = { params: { path: { id: target.id } } };
  const list =
    target.kind === 'entry'
      ? await answer(api.GET('/api/entries/{id}/attachments', path))
      : await answer(api.GET('/api/bank-transactions/{id}/attachments', path));
  return list.items;
}

export function uploadAttachment(target: AttachmentTarget, file: File): Promise<AttachmentDto> {
  const upload = { params: { path: { id: target.id } }, ...multipartFile(file) };
  return target.kind === 'entry'
    ? answer(api.POST('/api/entries/{id}/attachments', upload))
    : answer(api.POST('/api/bank-transactions/{id}/attachments', upload));
}

export async function deleteAttachment(id: string): Promise<void> {
  await api.DELETE('/api/attachments/{id}', { params: { path: { id } } });
}

/** The file's bytes, as the server typed them. */
export async function attachmentBlob(id: string): Promise<Blob> {
  const { data } = await api.GET('/api/attachments/{id}', {
    params: { path: { id }, query: { disposition: 'inline' } },
    parseAs: 'blob',
  });
  return data ?? new Blob([]);
}

/** How many files each entry and bank line holds (those with none are left out). */
export function attachmentCounts(
  entryIds: readonly string[],
  bankTransactionIds: readonly string[] = [],
): Promise<AttachmentCounts> {
  return answer(
    api.GET('/api/attachments/counts', {
      params: {
        query: {
          entry_ids: entryIds.join(',') || undefined,
          bank_transaction_ids: bankTransactionIds.join(',') || undefined,
        },
      },
    }),
  );
}

import { z } from 'zod';
import { filePart, isoDateTime, resourceId } from './common.ts';

/** The kinds of file an attachment may be, told from the bytes (never the name or the header). */
export const ATTACHMENT_CONTENT_TYPES = [
  'application/pdf',
  'image/jpeg',
  'image/png',
  'image/heic',
  'image/heif',
] as const;
export type AttachmentContentType = (typeof ATTACHMENT_CONTENT_TYPES)[number];

/** One file's limit (the multipart body may be a little larger: its boundaries and fields). */
export const ATTACHMENT_FILE_LIMIT_BYTES = 20 * 1024 * 1024;
export const ATTACHMENT_BODY_LIMIT = '21mb';
/** How many files one entry or bank line holds. */
export const ATTACHMENTS_PER_TARGET = 10;
/** What one user's files may take in all, counted once per distinct file. */
export const ATTACHMENT_QUOTA_BYTES = 2 * 1024 * 1024 * 1024;
export const ATTACHMENT_QUOTA_FILES = 10_000;
/** The longest file name kept (characters, after sanitizing). */
export const ATTACHMENT_NAME_MAX = 200;
/** How many ids one count request may name. */
export const ATTACHMENT_COUNT_IDS_MAX = 200;

export const attachmentUploadParts = z.object({ file: filePart });

export const attachment = z
  .object({
    id: resourceId,
    entry_id: resourceId.nullable(),
    bank_transaction_id: resourceId.nullable(),
    file_name: z.string().meta({ description: 'The name it was uploaded under, sanitized; metadata only' }),
    content_type: z.enum(ATTACHMENT_CONTENT_TYPES),
    size_bytes: z.number().int(),
    sha256: z.string().meta({ description: 'SHA-256 of the bytes, hex: the name the file is stored under' }),
    created_at: isoDateTime,
    waiting_for_sync: z.boolean().meta({
      description:
        'true while the file’s bytes have not arrived from the sync group yet (attached on another computer); its download answers 409 ATTACHMENT_WAITING_FOR_SYNC until they do',
    }),
  })
  .meta({ id: 'Attachment' });
export type AttachmentDto = z.infer<typeof attachment>;

export const attachmentList = z
  .object({ items: z.array(attachment), limit: z.number().int() })
  .meta({ id: 'AttachmentList' });

const idList = z
  .string()
  .max(ATTACHMENT_COUNT_IDS_MAX * 40)
  .transform((text) => text.split(',').filter((id) => id !== ''))
  .pipe(z.array(resourceId).max(ATTACHMENT_COUNT_IDS_MAX, `names at most ${ATTACHMENT_COUNT_IDS_MAX} ids`))
  .meta({ description: `Comma-separated ids, at most ${ATTACHMENT_COUNT_IDS_MAX}` });

export const attachmentCountsQuery = z.strictObject({
  entry_ids: idList.optional(),
  bank_transaction_ids: idList.optional(),
});

export const attachmentCounts = z
  .object({
    entries: z.record(z.string(), z.number().int()),
    bank_transactions: z.record(z.string(), z.number().int()),
  })
  .meta({
    id: 'AttachmentCounts',
    description: 'How many files each named entry and bank line holds; those with none are left out',
  });

export const attachmentUsage = z
  .object({
    files: z.number().int(),
    bytes: z.number().int(),
    quota_files: z.number().int(),
    quota_bytes: z.number().int(),
  })
  .meta({ id: 'AttachmentUsage' });

export const attachmentFile = z.string().meta({ format: 'binary', description: 'The file as uploaded' });

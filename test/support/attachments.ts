import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Api, ApiResponse } from './server.ts';

const FIXTURES = fileURLToPath(new URL('../fixtures/attachments/', import.meta.url));

/** A file of test/fixtures/attachments, as bytes. */
export function attachmentFixture(name: string): Uint8Array<ArrayBuffer> {
  return new Uint8Array(fs.readFileSync(FIXTURES + name));
}

/**
 * Uploads `bytes` as the multipart part "file" named `name` (and typed `type`, as a browser would)
 * to `<target>/attachments`: `/api/entries/<id>` or `/api/bank-transactions/<id>`.
 */
export async function uploadAttachment(
  user: { api: Api; token: string },
  target: string,
  bytes: Uint8Array<ArrayBuffer>,
  name: string,
  type = 'application/octet-stream',
): Promise<ApiResponse> {
  const form = new FormData();
  form.append('file', new Blob([bytes], { type }), name);
  const encoded = new Response(form);
  return user.api.request('POST', `${target}/attachments`, {
    rawBody: new Uint8Array(await encoded.arrayBuffer()),
    token: user.token,
    headers: { 'content-type': encoded.headers.get('content-type')! },
  });
}

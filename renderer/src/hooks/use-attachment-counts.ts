import { useEffect, useState } from 'react';
import { ATTACHMENT_COUNT_IDS_MAX, attachmentCounts } from '../api/index.ts';

/**
 * How many files each of the entries shown holds, for a paperclip beside its row; asked again when
 * the rows change or `version` does (a file attached or deleted). A failed ask shows no paperclip.
 */
export function useAttachmentCounts(entryIds: readonly string[], version = 0): Record<string, number> {
  const [counts, setCounts] = useState<Record<string, number>>({});
  const key = entryIds.slice(0, ATTACHMENT_COUNT_IDS_MAX).join(',');
  useEffect(() => {
    if (key === '') return;
    let live = true;
    attachmentCounts(key.split(','))
      .then((answer) => live && setCounts(answer.entries))
      .catch(() => live && setCounts({}));
    return () => {
      live = false;
    };
  }, [key, version]);
  return counts;
}

import { useCallback, useState } from 'react';
import { getEntry, type AccountDto, type JournalEntryDto } from '../api/index.ts';
import type { EditableLine } from '../entry-lines.ts';
import { EntryDetails } from './entry-details.tsx';
import { EntryEditor } from './entry-editor.tsx';

/** What the side of a list screen shows: nothing, a new entry, a draft or posted entry being changed, or an entry. */
export type EntryPane =
  | { kind: 'none' }
  | { kind: 'new' }
  | { kind: 'edit'; entry: JournalEntryDto }
  | { kind: 'view'; entry: JournalEntryDto };

/** The entry open beside a list, and opening one by its id (a failure kept for an ErrorNotice). */
export function useEntryPane() {
  const [pane, setPane] = useState<EntryPane>({ kind: 'none' });
  const [openError, setOpenError] = useState<unknown>(undefined);
  const open = useCallback(async (entryId: string) => {
    setOpenError(undefined);
    try {
      setPane({ kind: 'view', entry: await getEntry(entryId) });
    } catch (failure) {
      setOpenError(failure);
    }
  }, []);
  const dismissOpenError = useCallback(() => setOpenError(undefined), []);
  return { pane, setPane, open, openError, dismissOpenError };
}

/**
 * The side of a list screen: the entry editor (a new entry, or a draft or posted entry being
 * changed) or the open entry's details. `onChanged` follows every save, post and void: the screen
 * reloads its list.
 */
export function EntrySide({
  pane,
  setPane,
  open,
  accounts,
  initialLines,
  onChanged,
  onRepeated,
  onAttachments,
}: {
  pane: EntryPane;
  setPane: (pane: EntryPane) => void;
  open: (entryId: string) => Promise<void>;
  accounts: AccountDto[];
  /** a new entry's first lines */
  initialLines?: EditableLine[];
  onChanged: () => void;
  onRepeated?: () => void;
  onAttachments: () => void;
}) {
  if (pane.kind === 'none') return null;
  const shown = (entry: JournalEntryDto) => {
    setPane({ kind: 'view', entry });
    onChanged();
  };
  return (
    <div className="split-side">
      {(pane.kind === 'new' || pane.kind === 'edit') && (
        <EntryEditor
          key={pane.kind === 'edit' ? pane.entry.id : 'new'}
          accounts={accounts}
          draft={pane.kind === 'edit' ? pane.entry : undefined}
          initialLines={initialLines}
          onCancel={() => setPane(pane.kind === 'edit' ? { kind: 'view', entry: pane.entry } : { kind: 'none' })}
          onSaved={shown}
        />
      )}
      {pane.kind === 'view' && (
        <EntryDetails
          key={pane.entry.id}
          entry={pane.entry}
          onEdit={(entry) => setPane({ kind: 'edit', entry })}
          onChanged={shown}
          onOpen={(id) => void open(id)}
          onClose={() => setPane({ kind: 'none' })}
          {...(onRepeated ? { onRepeated } : {})}
          onAttachments={onAttachments}
        />
      )}
    </div>
  );
}

import { useEffect, useMemo, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import type { RegisterLineDto } from '../../api/index.ts';
import { Amount } from '../../components/amount.tsx';
import { Clipped } from '../../components/clipped.tsx';
import { TableHead } from '../../components/data-table.tsx';
import { Paperclip } from '../../components/paperclip.tsx';
import { useAttachmentCounts } from '../../hooks/use-attachment-counts.ts';
import { useI18n } from '../../i18n/index.ts';
import { accountLabel } from '../../names.ts';

const CLEARED_MARK: Record<RegisterLineDto['cleared'], string> = { uncleared: '', cleared: 'c', reconciled: 'R' };

/**
 * The register's lines as a table the keyboard moves through: one line at a time is in the Tab
 * order; ↑ ↓ move between lines, Home and End to the first and last, Page Up and Page Down turn
 * the page, Enter opens the line's entry, Escape closes it.
 */
export function RegisterTable({
  label,
  lines,
  currency,
  selectedEntry,
  onOpen,
  onAccount,
  onPage,
  onClose,
  empty,
  attachmentsVersion = 0,
}: {
  label: string;
  lines: readonly RegisterLineDto[];
  currency: string;
  selectedEntry: string | null;
  onOpen: (line: RegisterLineDto) => void;
  /** go to another account's register */
  onAccount: (accountId: string) => void;
  /** turn the page: +1 or −1 */
  onPage: (step: number) => void;
  onClose: () => void;
  empty: ReactNode;
  /** changes when a file is attached or deleted: the paperclips are counted again */
  attachmentsVersion?: number;
}) {
  const { t } = useI18n();
  const [active, setActive] = useState(0);
  const rows = useRef<(HTMLTableRowElement | null)[]>([]);
  const focusOnDraw = useRef(false);

  // a new page starts at its first line; the focus follows when the keyboard turned the page
  useEffect(() => {
    setActive(0);
    if (focusOnDraw.current) {
      focusOnDraw.current = false;
      rows.current[0]?.focus();
    }
  }, [lines]);

  const clips = useAttachmentCounts(
    useMemo(() => [...new Set(lines.map((l) => l.entry_id))], [lines]),
    attachmentsVersion,
  );

  if (lines.length === 0) return <>{empty}</>;

  const move = (index: number) => {
    const next = Math.max(0, Math.min(lines.length - 1, index));
    setActive(next);
    rows.current[next]?.focus();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTableRowElement>, index: number) => {
    const keys: Record<string, () => void> = {
      ArrowDown: () => move(index + 1),
      ArrowUp: () => move(index - 1),
      Home: () => move(0),
      End: () => move(lines.length - 1),
      Enter: () => onOpen(lines[index]!),
      ' ': () => onOpen(lines[index]!),
      Escape: onClose,
      PageDown: () => {
        focusOnDraw.current = true;
        onPage(1);
      },
      PageUp: () => {
        focusOnDraw.current = true;
        onPage(-1);
      },
    };
    const action = keys[event.key];
    if (!action || event.target !== event.currentTarget) return;
    event.preventDefault();
    action();
  };

  return (
    <div className="table-scroll">
      <table className="data-table register-table" aria-label={label}>
        <TableHead
          columns={[
            { header: t('entry.date') },
            { header: t('entry.memo') },
            { header: t('register.transfer') },
            { header: t('register.cleared') },
            { header: t('entry.amount'), numeric: true },
            { header: t('register.balance'), numeric: true },
          ]}
        />
        <tbody>
          {lines.map((line, index) => (
            <tr
              key={line.line_id}
              ref={(element) => {
                rows.current[index] = element;
              }}
              tabIndex={index === active ? 0 : -1}
              aria-selected={line.entry_id === selectedEntry}
              className={[
                line.entry_id === selectedEntry ? 'selected' : '',
                line.status === 'void' ? 'void-line' : '',
              ].join(' ')}
              data-line={line.line_id}
              onFocus={() => setActive(index)}
              onClick={() => {
                setActive(index);
                onOpen(line);
              }}
              onKeyDown={(e) => onKeyDown(e, index)}
            >
              <td className="nowrap">{line.entry_date}</td>
              <td>
                {line.memo ? <Clipped text={line.memo} /> : <span className="muted">{t('entry.noMemo')}</span>}
                {line.status === 'void' && <span className="badge status-void">{t('status.void')}</span>}{' '}
                <Paperclip count={clips[line.entry_id]} />
              </td>
              <td className="accounts-cell">
                {line.counter_accounts.length === 0 ? (
                  <span className="muted">—</span>
                ) : (
                  line.counter_accounts.map((account, i) => (
                    <span key={account.id}>
                      {i > 0 && ', '}
                      <a
                        href={`/accounts/${encodeURIComponent(account.id)}`}
                        tabIndex={-1}
                        onClick={(e) => {
                          e.preventDefault();
                          e.stopPropagation();
                          onAccount(account.id);
                        }}
                      >
                        {accountLabel(account.name, t)}
                      </a>
                    </span>
                  ))
                )}
              </td>
              <td className="cleared-cell">
                <span title={t(`cleared.${line.cleared}`)} aria-label={t(`cleared.${line.cleared}`)}>
                  {CLEARED_MARK[line.cleared]}
                </span>
              </td>
              <td className="num">
                <Amount value={line.amount} />
              </td>
              <td className="num">
                <Amount value={line.running_balance} currency={currency} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

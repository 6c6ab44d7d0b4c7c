import { useId, useMemo, useState, type KeyboardEvent, type Ref } from 'react';
import type { AccountDto } from '../api/index.ts';
import { useI18n } from '../i18n/index.ts';
import { accountLabel } from '../names.ts';

interface AccountPickerProps {
  accounts: readonly AccountDto[];
  value: string;
  onChange: (accountId: string) => void;
  /** The accessible name ("Account, line 1"). */
  label: string;
  /** Enter chose an account: the caller moves the focus on. */
  onChosen?: (accountId: string) => void;
  inputRef?: Ref<HTMLInputElement>;
  placeholder?: string;
}

function rank(label: string, query: string): number {
  const name = label.toLowerCase();
  if (name === query) return 0;
  if (name.startsWith(query)) return 1;
  if (name.split(/\s+/).some((word) => word.startsWith(query))) return 2;
  return name.includes(query) ? 3 : -1;
}

/**
 * An account search box (ARIA combobox): type part of a name, move with the arrow keys, choose
 * with Enter (or Tab, which also moves on), or click.
 */
export function AccountPicker({
  accounts,
  value,
  onChange,
  label,
  onChosen,
  inputRef,
  placeholder,
}: AccountPickerProps) {
  const { t } = useI18n();
  const listId = useId();
  const selected = accounts.find((a) => a.id === value);
  const [query, setQuery] = useState<string | null>(null);
  const [highlight, setHighlight] = useState(0);
  const open = query !== null;

  const matches = useMemo(() => {
    const q = (query ?? '').trim().toLowerCase();
    if (!q) return [...accounts];
    return accounts
      .map((account) => ({ account, score: rank(accountLabel(account.name, t), q) }))
      .filter((m) => m.score >= 0)
      .sort((a, b) => a.score - b.score || a.account.name.localeCompare(b.account.name))
      .map((m) => m.account);
  }, [accounts, query, t]);

  const choose = (account: AccountDto) => {
    onChange(account.id);
    setQuery(null);
    setHighlight(0);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      if (!open) setQuery('');
      setHighlight((h) => Math.min(h + 1, Math.max(0, matches.length - 1)));
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      setHighlight((h) => Math.max(0, h - 1));
    } else if (event.key === 'Enter') {
      if (event.ctrlKey || event.metaKey) return; // the editor's shortcut
      event.preventDefault();
      event.stopPropagation();
      const account = open ? matches[highlight] : selected;
      if (account) {
        choose(account);
        onChosen?.(account.id);
      }
    } else if (event.key === 'Tab') {
      const account = matches[highlight];
      if (open && query && account) choose(account);
      else setQuery(null);
    } else if (event.key === 'Escape') {
      if (open) {
        event.preventDefault();
        setQuery(null);
      }
    }
  };

  const active = open ? matches[highlight] : undefined;
  return (
    <div className="combobox">
      <input
        ref={inputRef}
        type="text"
        role="combobox"
        aria-label={label}
        aria-autocomplete="list"
        aria-expanded={open && matches.length > 0}
        aria-controls={listId}
        aria-activedescendant={active ? `${listId}-${active.id}` : undefined}
        autoComplete="off"
        spellCheck={false}
        placeholder={placeholder ?? t('picker.placeholder')}
        value={query ?? (selected ? accountLabel(selected.name, t) : '')}
        onChange={(e) => {
          setQuery(e.target.value);
          setHighlight(0);
        }}
        onFocus={(e) => e.target.select()}
        onBlur={() => setQuery(null)}
        onKeyDown={onKeyDown}
      />
      {open && matches.length > 0 && (
        <ul id={listId} role="listbox" aria-label={label} className="combobox-list">
          {matches.slice(0, 50).map((account, index) => (
            <li
              key={account.id}
              id={`${listId}-${account.id}`}
              role="option"
              aria-selected={index === highlight}
              className={index === highlight ? 'highlighted' : undefined}
              onMouseDown={(e) => {
                e.preventDefault();
                choose(account);
                onChosen?.(account.id);
              }}
              onMouseEnter={() => setHighlight(index)}
            >
              <span>{accountLabel(account.name, t)}</span>
              <span className="option-meta">
                {t(`type.${account.type}`)} · {account.currency}
              </span>
            </li>
          ))}
        </ul>
      )}
      {open && matches.length === 0 && (
        <div className="combobox-empty" role="status">
          {t('picker.none')}
        </div>
      )}
    </div>
  );
}

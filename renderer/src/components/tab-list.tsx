import { useRef, type KeyboardEvent } from 'react';

export interface TabItem<T extends string> {
  id: T;
  label: string;
}

/**
 * An ARIA tab list: one tab stop, arrow keys (and Home/End) move between tabs and select them.
 * Each tab controls the panel `${idPrefix}-panel-${id}`.
 */
export function TabList<T extends string>({
  items,
  selected,
  onSelect,
  label,
  idPrefix,
  className,
}: {
  items: TabItem<T>[];
  selected: T;
  onSelect: (id: T) => void;
  label: string;
  idPrefix: string;
  className?: string;
}) {
  const buttons = useRef(new Map<T, HTMLButtonElement>());
  const move = (event: KeyboardEvent<HTMLDivElement>) => {
    const index = items.findIndex((i) => i.id === selected);
    const target =
      event.key === 'ArrowRight'
        ? (index + 1) % items.length
        : event.key === 'ArrowLeft'
          ? (index - 1 + items.length) % items.length
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? items.length - 1
              : -1;
    const item = items[target];
    if (!item) return;
    event.preventDefault();
    onSelect(item.id);
    buttons.current.get(item.id)?.focus();
  };
  return (
    <div className={className} role="tablist" aria-label={label} onKeyDown={move}>
      {items.map((item) => (
        <button
          key={item.id}
          ref={(element) => {
            if (element) buttons.current.set(item.id, element);
            else buttons.current.delete(item.id);
          }}
          type="button"
          role="tab"
          id={`${idPrefix}-tab-${item.id}`}
          aria-selected={item.id === selected}
          aria-controls={`${idPrefix}-panel-${item.id}`}
          tabIndex={item.id === selected ? 0 : -1}
          onClick={() => onSelect(item.id)}
        >
          {item.label}
        </button>
      ))}
    </div>
  );
}

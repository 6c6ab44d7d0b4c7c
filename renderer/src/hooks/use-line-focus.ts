import { useEffect, useRef, useState } from 'react';
import type { EditableLine } from '../entry-lines.ts';

/** A line's fields; `cost` is an exchange's cost amount, on the row under the line. */
export type LineField = 'account' | 'debit' | 'credit' | 'cost';

/**
 * Moves the keyboard focus to a field of a line (and selects its text) once the lines are drawn,
 * so that a line added by the same keystroke can take it.
 */
export function useLineFocus(lines: readonly EditableLine[]) {
  const [focus, setFocus] = useState<{ line: number; field: LineField } | null>(null);
  const fields = useRef(new Map<string, HTMLInputElement>());

  useEffect(() => {
    if (!focus) return;
    const key = lines[focus.line]?.key;
    const element = key === undefined ? undefined : fields.current.get(`${key}:${focus.field}`);
    if (element) {
      element.focus();
      element.select();
    }
    setFocus(null);
  }, [focus, lines]);

  /** The ref of a line's field, so that it can be focused. */
  const fieldRef = (key: number, field: LineField) => (element: HTMLInputElement | null) => {
    if (element) fields.current.set(`${key}:${field}`, element);
    else fields.current.delete(`${key}:${field}`);
  };

  const focusField = (line: number, field: LineField) => setFocus({ line, field });

  /** Whether the line's field has the focus (the person is in it) and nothing typed in it. */
  const inEmptyField = (key: number, field: LineField) => {
    const element = fields.current.get(`${key}:${field}`);
    return element !== undefined && element === document.activeElement && element.value.trim() === '';
  };

  return { fieldRef, focusField, inEmptyField };
}

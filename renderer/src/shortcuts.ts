/** The key that starts a new entry from any screen (aria-keyshortcuts), as Gmail's C starts a message. */
export const NEW_ENTRY_KEY = 'N';

/** Whether a key press goes into something being typed, where a shortcut must not take it. */
export function typing(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName);
}

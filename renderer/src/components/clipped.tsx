/**
 * Text of any length in a list: at most two lines, ellipsised, the whole text on hover (title) and
 * when the control around it has the keyboard focus; screen readers read all of it. No row of a list
 * grows to a screen for one long memo or name.
 */
export function Clipped({ text, className }: { text: string; className?: string }) {
  return (
    <span className={className ? `clip-text ${className}` : 'clip-text'} title={text}>
      {text}
    </span>
  );
}

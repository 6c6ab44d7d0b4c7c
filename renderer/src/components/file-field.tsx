/** A labelled, required file input; a new `resetKey` clears the chosen file. */
export function FileField({
  label,
  accept,
  resetKey,
  onFile,
  className,
}: {
  label: string;
  accept: string;
  resetKey: number;
  onFile: (file: File | null) => void;
  className?: string;
}) {
  return (
    <label className={className}>
      {label}
      <input
        key={resetKey}
        type="file"
        required
        accept={accept}
        onChange={(e) => onFile(e.target.files?.[0] ?? null)}
      />
    </label>
  );
}

import fs from 'node:fs';

/** The text of a generated journal in pieces of at most `entries` entries each, cut between entries. */
export function journalChunks(file: string, entries: number): Generator<{ text: string; entries: number }> {
  // Read and split now, not on the first piece: at 1M entries this takes most of a second, which a
  // probe started meanwhile in this process would take for the server's silence.
  const parts = fs.readFileSync(file, 'utf8').split(/\n\n(?=\d{4}-\d{2}-\d{2} )/);
  const header = parts[0]!.startsWith(';') ? parts.shift()! : '';
  return (function* () {
    for (let i = 0; i < parts.length; i += entries) {
      const piece = parts.slice(i, i + entries);
      yield { text: (i === 0 && header ? header + '\n\n' : '') + piece.join('\n\n') + '\n', entries: piece.length };
    }
  })();
}

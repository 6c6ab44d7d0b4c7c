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

export interface ParsedEntry {
  date: string;
  memo: string;
  postings: { account: string; amount: string; currency: string }[];
}

/** Entries of a journal the generator wrote (its own simple subset of the hledger format). */
export function* parseJournal(text: string): Generator<ParsedEntry> {
  let current: ParsedEntry | undefined;
  for (const line of text.split('\n')) {
    const header = /^(\d{4}-\d{2}-\d{2}) \* (.*)$/.exec(line);
    if (header) {
      if (current) yield current;
      current = { date: header[1]!, memo: header[2]!, postings: [] };
      continue;
    }
    const posting = /^ {4}(.+?) {2,}(-?[\d.]+) ([A-Z]{3})$/.exec(line);
    if (posting && current) current.postings.push({ account: posting[1]!, amount: posting[2]!, currency: posting[3]! });
  }
  if (current) yield current;
}

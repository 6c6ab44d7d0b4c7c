import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { registerUser, startTestServer, type TestServer } from '../../../test/support/server.ts';
import { isSecuritySymbol } from '../../domain/plaintext/amounts.ts';
import { parseJournal, type JournalFormat } from '../../domain/plaintext/index.ts';
import {
  apiBalances,
  beancountBalances,
  describeTools,
  EXTENSION,
  ledgerBalances,
  requireTools,
  run,
  skipReason,
  sorted,
} from '../../../test/support/plaintext-tools.ts';

/**
 * Splits a journal into top-level blocks (a line and the indented lines after it; a beancount
 * string may span lines) and blanks every block our reader refuses, keeping line numbers.
 */
function keepSupported(text: string, format: JournalFormat): string {
  const lines = text.split('\n');
  const blocks: [number, number][] = [];
  let inString = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const startsBlock = !inString && line !== '' && !/^[ \t]/.test(line);
    if (startsBlock || blocks.length === 0) blocks.push([i, i + 1]);
    else blocks[blocks.length - 1]![1] = i + 1;
    if (format === 'beancount')
      for (const c of line.replace(/\\./g, '').replace(/;.*$/, (m) => (inString ? m : '')))
        if (c === '"') inString = !inString;
  }
  for (const [from, to] of blocks) {
    try {
      parseJournal(lines.slice(from, to).join('\n'), format);
      // a security's units are imported at cost, not as the tool counts them (export.investments.test.ts checks those)
      if (lines.slice(from, to).some(holdsSecurity)) throw new Error('units of a security');
    } catch {
      for (let i = from; i < to; i++) lines[i] = '';
    }
  }
  return lines.join('\n');
}

function holdsSecurity(line: string): boolean {
  const m = /^\s+\S+\s+-?[\d.,]+\s+([A-Z][A-Z0-9._'-]*)\s*[{@[]/.exec(line);
  return m !== null && isSecuritySymbol(m[1]!);
}

function blankBlockAt(text: string, lineNo: number): string {
  const lines = text.split('\n');
  let from = lineNo - 1;
  while (from > 0 && /^[ \t]/.test(lines[from]!)) from--;
  let to = from + 1;
  while (to < lines.length && /^[ \t]/.test(lines[to]!) && lines[to]!.trim() !== '') to++;
  for (let i = from; i < to; i++) lines[i] = '';
  return lines.join('\n');
}

describeTools(`real journals written elsewhere${skipReason}`, () => {
  let t: TestServer;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ledger-real-'));
  const generated = path.join(dir, 'bean-example.beancount');
  beforeAll(async () => {
    requireTools();
    t = await startTestServer();
    await run('bean-example', [
      '-s',
      '7',
      '--date-begin',
      '2022-01-01',
      '--date-end',
      '2023-06-30',
      '--date-birth',
      '1980-01-01',
      '-o',
      generated,
    ]);
  });
  afterAll(async () => {
    await t?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const journals: { name: string; file: () => string; format: JournalFormat; refused: RegExp }[] = [
    {
      name: "ledger's examples/sample.dat",
      file: () => '/usr/share/doc/ledger/examples/sample.dat',
      format: 'ledger',
      refused: /^line 5: an automated transaction \(=\)/,
    },
    {
      name: "beancount's examples/example.beancount",
      file: () => '/usr/share/doc/beancount/examples/example.beancount',
      format: 'beancount',
      refused: /^line \d+: the balance directive/,
    },
    {
      name: "beancount's examples/simple/basic.beancount",
      file: () => '/usr/share/doc/beancount/examples/simple/basic.beancount',
      format: 'beancount',
      refused: /^line 150: the pad directive/,
    },
    {
      name: 'a bean-example journal (seed 7)',
      file: () => generated,
      format: 'beancount',
      refused: /^line \d+: (the balance directive|the pad directive|a plugin|commodity "[A-Z]+" is not an ISO 4217)/,
    },
  ];

  for (const journal of journals) {
    it(`when ${journal.name} is imported whole, then it is refused with a 400 naming its first unsupported directive and its line`, async () => {
      const u = await registerUser(t.api);
      const text = fs.readFileSync(journal.file(), 'utf8');
      const res = await t.api.request('POST', `/api/import/journal?format=${journal.format}`, {
        rawBody: text,
        token: u.token,
        headers: { 'content-type': 'text/plain' },
      });
      expect(res.status).toBe(400);
      expect([res.body.code, res.body.detail]).toEqual([
        expect.stringMatching(/^UNSUPPORTED_(DIRECTIVE|COMMODITY)$/),
        expect.anything(),
      ]);
      expect(res.body.detail).toMatch(journal.refused);
    });

    it(`when the supported part of ${journal.name} is imported, then it reports the same balances as ${journal.format} for the same accounts`, async () => {
      const u = await registerUser(t.api);
      let text = keepSupported(fs.readFileSync(journal.file(), 'utf8'), journal.format);
      let res;
      for (let attempt = 0; ; attempt++) {
        res = await t.api.request('POST', `/api/import/journal?format=${journal.format}`, {
          rawBody: text,
          token: u.token,
          headers: { 'content-type': 'text/plain' },
        });
        if (res.status !== 400 || attempt === 40) break;
        // What only the ledger's rules refuse (an account in two currencies, an unknown root): leave it out too.
        text = blankBlockAt(text, Number(/^line (\d+)/.exec(res.body.detail)![1]));
      }
      expect(res.status).toBe(201);
      expect(res.body.entries_imported).toBeGreaterThan(2);
      const file = path.join(dir, `supported.${EXTENSION[journal.format]}`);
      fs.writeFileSync(file, text);
      const tool = await (journal.format === 'beancount' ? beancountBalances(file) : ledgerBalances(file));
      expect(sorted(await apiBalances(t.api, u.token, journal.format))).toEqual(sorted(tool));
    });
  }
});

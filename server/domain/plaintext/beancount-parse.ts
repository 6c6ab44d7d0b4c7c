import {
  currencyOf,
  isSecuritySymbol,
  parseBeancountPostingAmount,
  parseBeancountPrice,
  securityPrice,
} from './amounts.ts';
import { journalDate } from './dates.ts';
import { invalid, shown, unsupported } from './errors.ts';
import { readMark, readMemoJson } from './text.ts';
import type { ParsedAccount, ParsedJournal, ParsedTransaction } from './types.ts';

/**
 * Reads a beancount file in one pass: transactions (one posting may leave out its amount),
 * `open` (with our `name:` metadata), `close`, `commodity`, harmless options, comments, org-mode
 * headings, tags and links, metadata; `note`, `document`, `event` and `query` directives are
 * informational and skipped; `price` directives and postings' prices (`@`, `@@`: an exchange) are
 * read. What would change balances or account names (`balance`, `pad`, lot costs, `plugin`,
 * `include`, `custom`, root-renaming options) is refused by name and line.
 */

const MEMO_MAX = 500;

/** Options that change nothing we import (tolerances only matter to a ledger less exact than ours). */
const HARMLESS_OPTIONS = new Set([
  'title',
  'operating_currency',
  'render_commas',
  'booking_method',
  'documents',
  'inferred_tolerance_default',
  'inferred_tolerance_multiplier',
  'infer_tolerance_from_cost',
  'tolerance',
  'use_legacy_fixed_tolerances',
  'plugin_processing_mode',
  'long_string_maxlines',
  'insert_pythonpath',
  'conversion_currency',
  'account_previous_balances',
  'account_previous_earnings',
  'account_previous_conversions',
  'account_current_earnings',
  'account_current_conversions',
  'account_unrealized_gains',
]);

const INFORMATIONAL = new Set(['note', 'document', 'event', 'query']);
const REFUSED_DIRECTIVES: Readonly<Record<string, string>> = {
  balance: 'the balance directive (balance assertion)',
  pad: 'the pad directive',
  custom: 'the custom directive',
};
const FLAGS = /^(txn|[*!&#?%PSTCURM])$/;
const STRING = /"((?:[^"\\]|\\[\s\S])*)"/y;

function unescape(body: string): string {
  return body.replace(/\\([\s\S])/g, (_, c: string) => (c === 'n' ? '\n' : c === 't' ? '\t' : c));
}

/** Whether a line leaves a string open (beancount strings may span lines). */
function leavesStringOpen(line: string, open: boolean): boolean {
  let inString = open;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === ';') return false;
  }
  return inString;
}

/** The strings, tags and links after a directive keyword, up to a comment. */
function tokens(text: string, lineNo: number): { strings: string[]; words: string[] } {
  const strings: string[] = [];
  const words: string[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === ' ' || c === '\t' || c === '\n') i++;
    else if (c === ';') break;
    else if (c === '"') {
      STRING.lastIndex = i;
      const m = STRING.exec(text);
      if (!m) invalid(lineNo, 'a string is not closed');
      strings.push(unescape(m[1]!));
      i = STRING.lastIndex;
    } else {
      const end = text.slice(i).search(/[\s;]/);
      words.push(end === -1 ? text.slice(i) : text.slice(i, i + end));
      i = end === -1 ? text.length : i + end;
    }
  }
  return { strings, words };
}

type Context =
  | { kind: 'transaction'; txn: ParsedTransaction; postingSeen: boolean }
  | { kind: 'open'; decl: ParsedAccount }
  | { kind: 'other' }
  | null;

export function parseBeancount(source: string): ParsedJournal {
  const out: ParsedJournal = { accounts: [], transactions: [], closes: [], prices: [], operatingCurrency: null };
  const physical = source.split(/\r?\n/);
  let context: Context = null;
  for (let i = 0; i < physical.length; i++) {
    const lineNo = i + 1;
    let raw = physical[i]!;
    // A string left open continues on the next lines.
    let open = leavesStringOpen(raw, false);
    while (open && i + 1 < physical.length) {
      i++;
      raw += `\n${physical[i]!}`;
      open = leavesStringOpen(physical[i]!, true);
    }
    if (open) invalid(lineNo, 'a string is not closed');
    if (raw.trim() === '') {
      context = null;
      continue;
    }
    if (raw[0] === ' ' || raw[0] === '\t') {
      indented(raw.trim(), lineNo, context);
      if (context?.kind === 'transaction' && !raw.trim().startsWith(';') && !isMetadata(raw.trim()))
        context.postingSeen = true;
      continue;
    }
    context = null;
    if (';*#:!&?%'.includes(raw[0]!)) continue;
    const [word = '', ...restWords] = raw.split(/\s+/);
    if (/^\d/.test(word)) {
      context = dated(raw, word, lineNo, out);
      continue;
    }
    switch (word) {
      case 'option': {
        const { strings } = tokens(raw.slice(word.length), lineNo);
        const [key, value] = strings;
        if (key === undefined || value === undefined) invalid(lineNo, 'an option needs a name and a value');
        if (!HARMLESS_OPTIONS.has(key)) unsupported(lineNo, `the option ${shown(key, 40)}`);
        if (key === 'operating_currency' && out.operatingCurrency === null)
          out.operatingCurrency = currencyOf(value, lineNo);
        break;
      }
      case 'plugin':
        return unsupported(lineNo, `a plugin (${restWords.join(' ').slice(0, 60)})`);
      case 'include':
        return unsupported(lineNo, 'an included file (include)');
      case 'pushtag':
      case 'poptag':
      case 'pushmeta':
      case 'popmeta':
        break;
      default:
        unsupported(lineNo, `the directive ${shown(word, 30)}`);
    }
  }
  return out;
}

function isMetadata(text: string): boolean {
  return /^[a-z][A-Za-z0-9_-]*:(\s|$)/.test(text);
}

function dated(raw: string, dateText: string, lineNo: number, out: ParsedJournal): Context {
  const afterDate = raw.slice(dateText.length).trimStart();
  const keyword = afterDate.split(/[\s;]/)[0] ?? '';
  const rest = afterDate.slice(keyword.length);
  const isTransaction = FLAGS.test(keyword) || keyword.startsWith('"');
  const date = journalDate(dateText, lineNo, isTransaction || keyword === 'price');
  if (keyword === '') invalid(lineNo, 'a date with no directive');
  if (isTransaction) {
    const { strings } = tokens(keyword.startsWith('"') ? afterDate : rest, lineNo);
    if (strings.length > 2) invalid(lineNo, 'a transaction has at most a payee and a narration');
    const [payee, narration] = strings.length === 2 ? strings : [undefined, strings[0]];
    const memo = [payee || null, narration || null].filter(Boolean).join(' | ');
    if (memo.length > MEMO_MAX) invalid(lineNo, `the narration is longer than ${MEMO_MAX} characters`);
    const txn: ParsedTransaction = { line: lineNo, date, memo: memo === '' ? null : memo, postings: [] };
    out.transactions.push(txn);
    return { kind: 'transaction', txn, postingSeen: false };
  }
  switch (keyword) {
    case 'open': {
      const { words } = tokens(rest, lineNo);
      const [path, currencies] = words;
      if (path === undefined) invalid(lineNo, 'open names no account');
      const decl: ParsedAccount = {
        line: lineNo,
        path,
        name: null,
        currencies:
          currencies === undefined || currencies.startsWith('"')
            ? []
            : currencies
                .split(',')
                // a security the account holds (docs/investments.md "Interop") is no currency of it
                .filter((c) => c !== '' && !isSecuritySymbol(c))
                .map((c) => currencyOf(c, lineNo)),
      };
      out.accounts.push(decl);
      return { kind: 'open', decl };
    }
    case 'close': {
      const [path] = tokens(rest, lineNo).words;
      if (path === undefined) invalid(lineNo, 'close names no account');
      out.closes.push({ line: lineNo, path });
      return { kind: 'other' };
    }
    case 'commodity':
      return { kind: 'other' };
    case 'price': {
      const m = /^\s+([A-Z][A-Z0-9'._-]*)\s+([^;]+?)\s*(?:;.*)?$/.exec(rest);
      if (!m) invalid(lineNo, 'a price reads DATE price CURRENCY NUMBER CURRENCY');
      const security = securityPrice(m[1]!, m[2]!, lineNo);
      if (security) {
        (out.securityPrices ??= []).push({ line: lineNo, date, ...security });
        return { kind: 'other' };
      }
      const from = currencyOf(m[1]!, lineNo);
      const { rateScaled, currency: to } = parseBeancountPrice(m[2]!, lineNo);
      if (from === to) invalid(lineNo, `the price of ${from} is in ${from} itself`);
      out.prices.push({ line: lineNo, date, from, to, rateScaled });
      return { kind: 'other' };
    }
    default:
      if (INFORMATIONAL.has(keyword)) return { kind: 'other' };
      unsupported(lineNo, REFUSED_DIRECTIVES[keyword] ?? `the directive ${shown(keyword, 30)}`);
  }
}

function indented(text: string, lineNo: number, context: Context): void {
  if (text.startsWith(';')) return;
  if (context === null) invalid(lineNo, 'an indented line outside a directive');
  const meta = /^([a-z][A-Za-z0-9_-]*):\s*(.*)$/s.exec(text);
  if (meta) {
    const [, key, value] = meta;
    const strings = value!.startsWith('"') ? tokens(value!, lineNo).strings : [];
    if (context.kind === 'open' && key === 'name' && strings[0] !== undefined) context.decl.name = strings[0];
    // posting metadata: our export marks a currency trading line `automatic: "trading"`
    if (context.kind === 'transaction' && context.postingSeen && key === 'automatic' && strings[0] === 'trading') {
      const last = context.txn.postings.at(-1);
      if (last) last.automatic = true;
    }
    if (context.kind === 'transaction' && !context.postingSeen && strings[0] !== undefined)
      context.txn.marks = readMark(context.txn.marks, key!, strings[0]);
    if (context.kind === 'transaction' && !context.postingSeen && key === 'memo' && strings[0] !== undefined) {
      const memo = readMemoJson(strings[0]);
      if (memo !== undefined) {
        if (memo.length > MEMO_MAX) invalid(lineNo, `the memo is longer than ${MEMO_MAX} characters`);
        context.txn.memo = memo === '' ? null : memo;
      }
    }
    return;
  }
  if (context.kind !== 'transaction') invalid(lineNo, 'an indented line that is neither metadata nor a comment');
  const m = /^(?:[*!&#?%PSTCURM]\s+)?([^\s;]+)\s*([^;]*)/.exec(text);
  if (!m) invalid(lineNo, 'a posting could not be read');
  const account = m[1]!;
  const amountText = m[2]!.trim();
  const parsed = amountText === '' ? null : parseBeancountPostingAmount(amountText, lineNo);
  context.txn.postings.push({
    line: lineNo,
    account,
    amount: parsed?.amount ?? null,
    ...(parsed?.cost && { cost: parsed.cost }),
    ...(parsed?.rounded && { rounded: true }),
    ...(parsed && 'units' in parsed && parsed.units && { units: parsed.units }),
  });
}

import { currencyOf, parseLedgerPostingAmount, parseLedgerPrice, securityPrice } from './amounts.ts';
import { journalDate } from './dates.ts';
import { invalid, shown, unsupported } from './errors.ts';
import { readMark, readMemoJson } from './text.ts';
import type { ParsedAccount, ParsedJournal, ParsedTransaction } from './types.ts';

/**
 * Reads a ledger or hledger journal in one pass: dated transactions with postings (one may leave
 * out its amount), comments and comment blocks, and the directives that change nothing we keep
 * (`account`, `commodity`, `tag`, `payee`, `N`, `apply tag`), market prices (`P`) and postings'
 * prices (`@`, `@@`: an exchange). Everything else that would change
 * what the journal means to the real tools (lot costs, balance assertions, virtual postings,
 * periodic and automated transactions, `include`, `alias`, default commodities or accounts, ...)
 * is refused by name and line, never silently skipped.
 */

const MEMO_MAX = 500;

/** Top-level keywords refused, with what to call them. */
const REFUSED: Readonly<Record<string, string>> = {
  D: 'a default commodity (D)',
  Y: 'a default year (Y)',
  year: 'a default year (year)',
  A: 'a default balancing account (A)',
  bucket: 'a default balancing account (bucket)',
  C: 'a commodity conversion (C)',
  alias: 'an account alias (alias)',
  include: 'an included file (include)',
  define: 'a value definition (define)',
  def: 'a value definition (def)',
  assert: 'an assertion (assert)',
  check: 'a check (check)',
  expr: 'a value expression (expr)',
  eval: 'a value expression (eval)',
  value: 'a value expression (value)',
  python: 'Python code (python)',
  import: 'a Python import (import)',
  'decimal-mark': 'a decimal mark (decimal-mark)',
  i: 'a timeclock entry (i)',
  o: 'a timeclock entry (o)',
  I: 'a timeclock entry (I)',
  O: 'a timeclock entry (O)',
  b: 'a timeclock entry (b)',
  h: 'a timeclock entry (h)',
};

type Context =
  | { kind: 'transaction'; txn: ParsedTransaction; postingSeen: boolean }
  | { kind: 'account'; decl: ParsedAccount }
  | { kind: 'commodity' }
  | { kind: 'ignored' }
  | null;

const HEADER = /^(\S+?)(?:=(\S+))?(?:\s+(.*))?$/;

export function parseLedgerJournal(source: string, flavor: 'ledger' | 'hledger'): ParsedJournal {
  const out: ParsedJournal = { accounts: [], transactions: [], closes: [], prices: [], operatingCurrency: null };
  const lines = source.split(/\r?\n/);
  let context: Context = null;
  let blockComment = false;
  for (let i = 0; i < lines.length; i++) {
    const lineNo = i + 1;
    const raw = lines[i]!;
    if (blockComment) {
      if (/^end\s+(comment|test)\b/.test(raw.trim())) blockComment = false;
      continue;
    }
    if (raw.trim() === '') {
      context = null;
      continue;
    }
    if (raw[0] === ' ' || raw[0] === '\t') {
      context = indented(raw.trim(), lineNo, context);
      continue;
    }
    context = null;
    const first = raw[0]!;
    if (';#%|*'.includes(first)) continue;
    if (first >= '0' && first <= '9') {
      const txn = header(raw, lineNo, flavor);
      out.transactions.push(txn);
      context = { kind: 'transaction', txn, postingSeen: false };
      continue;
    }
    if (first === '~') unsupported(lineNo, 'a periodic transaction (~)');
    if (first === '=') unsupported(lineNo, 'an automated transaction (=)');
    if (first === '-') unsupported(lineNo, `a command-line option in the file (${raw.trim().split(/\s/)[0]})`);
    const [word = '', ...rest] = raw.trim().split(/\s+/);
    const argument = raw.trim().slice(word.length).trim();
    switch (word) {
      case 'account': {
        const path = directiveAccount(argument);
        if (path === '') invalid(lineNo, 'the account directive names no account');
        const decl: ParsedAccount = { line: lineNo, path, name: null, currencies: [] };
        out.accounts.push(decl);
        context = { kind: 'account', decl };
        break;
      }
      case 'commodity':
        context = { kind: 'commodity' };
        break;
      case 'P': {
        const price = marketPrice(argument, lineNo);
        if ('symbol' in price) (out.securityPrices ??= []).push(price);
        else out.prices.push(price);
        break;
      }
      case 'tag':
      case 'payee':
      case 'N':
        context = { kind: 'ignored' };
        break;
      case 'comment':
      case 'test':
        blockComment = true;
        break;
      case 'apply':
        if (rest[0] !== 'tag') unsupported(lineNo, `apply ${rest[0] ?? ''}`.trim());
        break;
      case 'end':
        break;
      default: {
        const refused = REFUSED[word];
        if (refused) unsupported(lineNo, refused);
        unsupported(lineNo, `the directive ${shown(word, 30)}`);
      }
    }
  }
  return out;
}

/** `P DATE [TIME] COMMODITY PRICE`: one unit of the commodity is worth the price. */
function marketPrice(
  text: string,
  lineNo: number,
): ParsedJournal['prices'][number] | NonNullable<ParsedJournal['securityPrices']>[number] {
  const m = /^(\S+)(?:\s+\d{1,2}:\d{2}(?::\d{2})?)?\s+("[^"]*"|[^\s\d"-][^\s\d]*)\s+(.+?)\s*(?:;.*)?$/.exec(text);
  if (!m) invalid(lineNo, 'a P directive reads P DATE COMMODITY PRICE, such as P 2026-01-05 EUR 1.085 USD');
  const date = journalDate(m[1]!, lineNo);
  const security = securityPrice(m[2]!, m[3]!, lineNo);
  if (security) return { line: lineNo, date, ...security };
  const from = currencyOf(m[2]!, lineNo);
  const { rateScaled, currency: to } = parseLedgerPrice(m[3]!, lineNo);
  if (from === to) invalid(lineNo, `the price of ${from} is in ${from} itself`);
  return { line: lineNo, date, from, to, rateScaled };
}

/** An `account` directive's account: up to two spaces, a tab or a comment. */
function directiveAccount(text: string): string {
  const m = /^(.*?)(?:\s{2}|\t|\s;|$)/.exec(text);
  return (m?.[1] ?? '').trim();
}

function header(raw: string, lineNo: number, flavor: 'ledger' | 'hledger'): ParsedTransaction {
  const m = HEADER.exec(raw.trimEnd())!;
  const date = journalDate(m[1]!, lineNo);
  // An auxiliary date (DATE=DATE2) is read but not kept: the real tools report by the primary date.
  if (m[2] !== undefined && !/^(\d{4}[-/.])?\d{1,2}[-/.]\d{1,2}$/.test(m[2]))
    invalid(lineNo, `${shown(m[2])} is not an auxiliary date`);
  let rest = m[3] ?? '';
  rest = rest.replace(/^[*!]\s*/, '');
  let code: string | null = null;
  const codeMatch = /^\(([^)]*)\)\s*/.exec(rest);
  if (codeMatch) {
    code = codeMatch[1]!;
    rest = rest.slice(codeMatch[0].length);
  }
  // hledger ends a description at any `;`, ledger at a `;` after whitespace.
  const cut = flavor === 'hledger' ? rest.indexOf(';') : rest.search(/(^|\s);/);
  const description = (cut === -1 ? rest : rest.slice(0, cut)).trim();
  const trailing = cut === -1 ? null : /^;?\s*id:\s*(\S+)\s*$/.exec(rest.slice(cut).trim());
  const memo = [code === null || code === '' ? null : `(${code})`, description || null].filter(Boolean).join(' ');
  if (memo.length > MEMO_MAX) invalid(lineNo, `the description is longer than ${MEMO_MAX} characters`);
  const txn: ParsedTransaction = { line: lineNo, date, memo: memo === '' ? null : memo, postings: [] };
  if (trailing) txn.marks = readMark(txn.marks, 'id', trailing[1]!);
  return txn;
}

function indented(text: string, lineNo: number, context: Context): Context {
  if (context === null) {
    if (text.startsWith(';') || text.startsWith('#')) return null;
    invalid(lineNo, 'an indented line outside a transaction or directive');
  }
  const isComment = text.startsWith(';');
  switch (context.kind) {
    case 'transaction':
      if (isComment) {
        comment(text.slice(1), lineNo, context);
        return context;
      }
      posting(text, lineNo, context);
      context.postingSeen = true;
      return context;
    case 'account': {
      if (isComment) {
        const tag = /^\s*(name|currency):\s*(.*)$/.exec(text.slice(1));
        if (tag?.[1] === 'name') {
          const name = readMemoJson(tag[2]!);
          if (name !== undefined) context.decl.name = name;
        } else if (tag?.[1] === 'currency' && /^[A-Z]{3}$/.test(tag[2]!.trim())) {
          context.decl.currencies.push(currencyOf(tag[2]!.trim(), lineNo));
        }
        return context;
      }
      const word = text.split(/\s+/)[0]!;
      if (word === 'note') return context;
      return unsupported(lineNo, `the account sub-directive ${shown(word, 30)}`);
    }
    case 'commodity': {
      if (isComment) return context;
      const word = text.split(/\s+/)[0]!;
      if (word === 'format' || word === 'note' || word === 'nomarket') return context;
      return unsupported(lineNo, `the commodity sub-directive ${shown(word, 30)}`);
    }
    case 'ignored':
      return context;
  }
}

/** A transaction comment may restore the exact memo; a posting comment may not move a posting's date. */
function comment(text: string, lineNo: number, context: Extract<Context, { kind: 'transaction' }>): void {
  if (context.postingSeen) {
    if (/(^|[\s,])date2?:/.test(text)) unsupported(lineNo, 'a posting date (date: tag)');
    if (/\[=?\d{4}[-/.]\d{1,2}[-/.]\d{1,2}/.test(text) || /\[=\d{1,2}[-/.]\d{1,2}/.test(text))
      unsupported(lineNo, 'a posting date ([DATE])');
    return;
  }
  const mark = /^\s*(id|voided-by|reverses):\s*(\S+)\s*$/.exec(text);
  if (mark) context.txn.marks = readMark(context.txn.marks, mark[1]!, mark[2]!);
  const tag = /^\s*memo:\s*(.*)$/.exec(text);
  if (tag) {
    const memo = readMemoJson(tag[1]!);
    if (memo !== undefined) {
      if (memo.length > MEMO_MAX) invalid(lineNo, `the memo is longer than ${MEMO_MAX} characters`);
      context.txn.memo = memo === '' ? null : memo;
    }
  }
}

function posting(text: string, lineNo: number, context: Extract<Context, { kind: 'transaction' }>): void {
  const semicolon = text.indexOf(';');
  let body = semicolon === -1 ? text : text.slice(0, semicolon);
  let automatic = false;
  if (semicolon !== -1) {
    const note = text.slice(semicolon + 1);
    context.postingSeen = true;
    comment(note, lineNo, context);
    automatic = /(^|[\s,])automatic:\s*trading\b/.test(note);
  }
  body = body.replace(/^[*!]\s*/, '').trimEnd();
  const m = /^(.*?)(?:\t|\s{2,}|$)(.*)$/.exec(body)!;
  const account = m[1]!.trim();
  const amountText = m[2]!.trim();
  if (account === '') invalid(lineNo, 'the posting names no account');
  if (account.startsWith('(') && account.endsWith(')')) unsupported(lineNo, 'a virtual posting ((ACCOUNT))');
  if (account.startsWith('[') && account.endsWith(']')) unsupported(lineNo, 'a balanced virtual posting ([ACCOUNT])');
  const parsed = amountText === '' ? null : parseLedgerPostingAmount(amountText, lineNo);
  context.txn.postings.push({
    line: lineNo,
    account,
    amount: parsed?.amount ?? null,
    ...(parsed?.cost && { cost: parsed.cost }),
    ...(parsed?.rounded && { rounded: true }),
    ...(parsed && 'units' in parsed && parsed.units && { units: parsed.units }),
    ...(automatic && { automatic }),
  });
}

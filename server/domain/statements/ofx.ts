import { formatBankAmount, readBankAmount } from './bank-amount.ts';
import { parseOfxDate } from './dates.ts';
import { fail, quote } from './fail.ts';
import { parseSgml } from './sgml.ts';
import { NO_DESCRIPTION, cleanText } from './text.ts';
import { isWellFormedXml, parseXml, refuseDoctype, refuseTooManyEntries } from './xml.ts';
import { child, childrenNamed, findAll, textAt } from './xnode.ts';
import type { XNode } from './xnode.ts';
import type { RawParse, RawRow, RawStatement, StatedBalance } from './types.ts';

export const UNCLOSED_OFX_NOTE = 'the file ends before </OFX>: it may be cut short (compare the count with your bank)';

/**
 * OFX 1.x (SGML), OFX 2.x (XML) and QFX, with or without the OFX header. Well-formed XML goes
 * through fast-xml-parser; SGML bodies, and XML whose tags are left open or closed out of order,
 * go through the SGML reader. Every STMTRS (bank) and CCSTMTRS (credit card) becomes one
 * statement, in file order.
 */
export function parseOfx(text: string, limit: number): RawParse {
  refuseDoctype(text);
  refuseTooManyEntries(text, /<STMTTRN[\s>]/gi, limit, 'transactions');
  const sgmlHeader = /^\s*OFXHEADER\s*:/i.test(text);
  const tree = !sgmlHeader && isWellFormedXml(text) ? null : parseSgml(bodyOf(text));
  const root = tree?.root ?? parseXml(text, true, true);
  const ofx = child(root, 'OFX');
  if (!ofx) fail('no <OFX> element: not an OFX file');
  const responses = findAll(ofx, ['STMTRS', 'CCSTMTRS']);
  if (responses.length === 0) {
    const investment = findAll(ofx, 'INVSTMTRS')[0];
    if (investment) fail(`line ${investment.line}: <INVSTMTRS> investment statements are not supported`);
    fail('no <STMTRS> or <CCSTMTRS> statement in the OFX file');
  }
  const counter = { count: 0, limit };
  const notes = tree?.unclosedAtEnd == null ? [] : [{ line: tree.unclosedAtEnd, reason: UNCLOSED_OFX_NOTE }];
  return { statements: responses.map((stmt) => readStatement(stmt, counter)), notes };
}

/** The SGML body starts at the first '<' after the KEY:VALUE header lines; line numbers are kept. */
function bodyOf(text: string): string {
  const at = text.indexOf('<');
  if (at === -1) fail('no <OFX> element: not an OFX file');
  return text.slice(0, at).replace(/[^\n]/g, ' ') + text.slice(at);
}

function readStatement(stmt: XNode, counter: { count: number; limit: number }): RawStatement {
  const misplaced = childrenNamed(stmt, 'STMTTRN')[0];
  if (misplaced) fail(`line ${misplaced.line}: <STMTTRN> lies outside <BANKTRANLIST> in <${stmt.name}>`);
  const account = textAt(child(stmt, 'BANKACCTFROM') ?? child(stmt, 'CCACCTFROM'), 'ACCTID');
  const lists = childrenNamed(stmt, 'BANKTRANLIST');
  const rows: RawRow[] = [];
  const transactionCurrencies = new Set<string>();
  for (const list of lists) {
    for (const trn of childrenNamed(list, 'STMTTRN')) {
      counter.count += 1;
      if (counter.count > counter.limit) fail(`line ${trn.line}: more than ${counter.limit} transactions`);
      rows.push(readTransaction(trn, counter.count));
      const cursym = currencyCode(textAt(trn, 'CURRENCY/CURSYM') ?? textAt(trn, 'ORIGCURRENCY/CURSYM'));
      if (cursym) transactionCurrencies.add(cursym);
    }
  }
  const first = lists[0];
  const declared = currencyCode(textAt(stmt, 'CURDEF'));
  return {
    account_ref: cleanText(account) || null,
    currency: declared ?? (transactionCurrencies.size === 1 ? ([...transactionCurrencies][0] ?? null) : null),
    start_date: parseOfxDate(textAt(first, 'DTSTART') ?? ''),
    end_date: parseOfxDate(textAt(first, 'DTEND') ?? ''),
    opening_balance: null,
    closing_balance: ledgerBalance(child(stmt, 'LEDGERBAL')),
    rows,
  };
}

/** LEDGERBAL: the booked balance at DTASOF (as the bank sees it: negative when owed). A missing or unreadable one is none. */
function ledgerBalance(node: XNode | undefined): StatedBalance | null {
  const text = textAt(node, 'BALAMT');
  const amount = text === null ? null : readBankAmount(text, 'ofx');
  if (amount === null) return null;
  return { amount: formatBankAmount(amount), date: parseOfxDate(textAt(node, 'DTASOF') ?? '') };
}

function readTransaction(trn: XNode, index: number): RawRow {
  const where = `line ${trn.line}: <STMTTRN> ${index}`;
  const posted = textAt(trn, 'DTPOSTED');
  if (posted === null) fail(`${where}: DTPOSTED is missing`);
  if (posted === '') fail(`${where}: DTPOSTED is empty`);
  const date = parseOfxDate(posted);
  if (date === null) fail(`${where}: DTPOSTED ${quote(posted)} is not a valid date`);
  const trnamt = textAt(trn, 'TRNAMT');
  if (trnamt === null) fail(`${where}: TRNAMT is missing`);
  const amount = readBankAmount(trnamt, 'ofx');
  if (amount === null) fail(`${where}: TRNAMT ${quote(trnamt)} is not a number`);
  return {
    line: trn.line,
    date,
    amount: formatBankAmount(amount),
    description: ofxDescription(trn),
    external_id: cleanText(textAt(trn, 'FITID')) || null,
    skip_reason: null,
  };
}

/**
 * NAME is preferred. MEMO is used instead when it contains NAME (a NAME cut at 32 characters, or a
 * MEMO that repeats it), and joined as "NAME - MEMO" when it adds something else. Without either,
 * the payee, then the transaction type and cheque number are used.
 */
function ofxDescription(trn: XNode): string {
  const name = cleanText(textAt(trn, 'NAME') ?? textAt(trn, 'PAYEE/NAME'));
  const memo = cleanText(textAt(trn, 'MEMO'));
  if (name !== '' && memo !== '') {
    if (memo.toUpperCase().includes(name.toUpperCase())) return memo;
    if (name.toUpperCase().includes(memo.toUpperCase())) return name;
    return `${name} - ${memo}`;
  }
  if (name !== '' || memo !== '') return name || memo;
  const type = cleanText(textAt(trn, 'TRNTYPE')).toUpperCase();
  const check = cleanText(textAt(trn, 'CHECKNUM'));
  const fallback = [type, check !== '' && !/^0+$/.test(check) ? check : ''].filter((p) => p !== '').join(' ');
  return fallback || NO_DESCRIPTION;
}

function currencyCode(value: string | null): string | null {
  const code = cleanText(value).toUpperCase();
  return /^[A-Z]{3}$/.test(code) ? code : null;
}

import { formatBankAmount, readBankAmount } from './bank-amount.ts';
import { parseIsoDate } from './dates.ts';
import { fail, quote } from './fail.ts';
import { NO_DESCRIPTION, cleanText, joinText } from './text.ts';
import { parseXml, refuseTooManyEntries } from './xml.ts';
import { child, childrenNamed, findAll, path, textAt } from './xnode.ts';
import type { XNode } from './xnode.ts';
import type { RawParse, RawRow, RawStatement, StatedBalance } from './types.ts';

/** Entry statuses that are not (yet) bookings: pending and informational entries are skipped. */
const SKIPPED_STATUS: Record<string, string> = {
  PDNG: 'pending entry (Sts PDNG)',
  INFO: 'informational entry (Sts INFO)',
  FUTR: 'future entry (Sts FUTR)',
};

/**
 * ISO 20022 camt.053 (any version 001.02–001.13): every Stmt is a statement and every Ntry one
 * transaction (batch entries are not split into their TxDtls). The date is BookgDt (Dt or DtTm,
 * calendar date as written), falling back to ValDt; the direction is CdtDbtInd (also for
 * reversals, RvslInd, whose CdtDbtInd already gives the direction of the booking).
 */
export function parseCamt053(text: string, limit: number): RawParse {
  refuseTooManyEntries(text, /<(?:[A-Za-z_][\w.-]*:)?Ntry[\s/>]/g, limit, 'entries');
  const root = parseXml(text);
  const document = child(root, 'Document');
  const report = child(document, 'BkToCstmrStmt');
  if (!report) fail('no <Document>/<BkToCstmrStmt> element: not a camt.053 bank-to-customer statement');
  const stmts = childrenNamed(report, 'Stmt');
  if (stmts.length === 0) fail(`line ${report.line}: <BkToCstmrStmt> contains no <Stmt> statement`);
  const counter = { count: 0, limit };
  return { statements: stmts.map((stmt) => readStatement(stmt, counter)), notes: [] };
}

function readStatement(stmt: XNode, counter: { count: number; limit: number }): RawStatement {
  const account = textAt(stmt, 'Acct/Id/IBAN') ?? textAt(stmt, 'Acct/Id/Othr/Id');
  const rows: RawRow[] = [];
  const entryCurrencies = new Set<string>();
  for (const entry of childrenNamed(stmt, 'Ntry')) {
    counter.count += 1;
    if (counter.count > counter.limit) fail(`line ${entry.line}: more than ${counter.limit} entries`);
    rows.push(readEntry(entry, counter.count));
    const ccy = currencyCode(child(entry, 'Amt')?.attrs['Ccy']);
    if (ccy) entryCurrencies.add(ccy);
  }
  const declared = currencyCode(textAt(stmt, 'Acct/Ccy'));
  const currency = declared ?? (entryCurrencies.size === 1 ? ([...entryCurrencies][0] ?? null) : null);
  return {
    account_ref: cleanText(account) || null,
    currency,
    start_date: parseIsoDate(textAt(stmt, 'FrToDt/FrDtTm') ?? textAt(stmt, 'FrToDt/FrDt') ?? ''),
    end_date: parseIsoDate(textAt(stmt, 'FrToDt/ToDtTm') ?? textAt(stmt, 'FrToDt/ToDt') ?? ''),
    opening_balance: statedBalance(stmt, ['OPBD', 'PRCD'], currency),
    closing_balance: statedBalance(stmt, ['CLBD'], currency),
    rows,
  };
}

/**
 * The first Bal of one of these codes (Tp/CdOrPrtry/Cd, or Prtry), signed by its CdtDbtInd. A
 * balance in another currency than the statement's is none (genkgo's samples mix them).
 */
function statedBalance(stmt: XNode, codes: readonly string[], currency: string | null): StatedBalance | null {
  for (const bal of childrenNamed(stmt, 'Bal')) {
    const code = cleanText(textAt(bal, 'Tp/CdOrPrtry/Cd') ?? textAt(bal, 'Tp/CdOrPrtry/Prtry')).toUpperCase();
    if (!codes.includes(code)) continue;
    const ccy = currencyCode(child(bal, 'Amt')?.attrs['Ccy']);
    if (ccy !== null && currency !== null && ccy !== currency) continue;
    const text = textAt(bal, 'Amt');
    const amount = text === null ? null : readBankAmount(text, '.');
    const indicator = textAt(bal, 'CdtDbtInd');
    if (amount === null || (indicator !== 'CRDT' && indicator !== 'DBIT')) continue;
    return {
      amount: formatBankAmount(indicator === 'DBIT' ? amount.abs().negated() : amount.abs()),
      date: parseIsoDate(textAt(bal, 'Dt/Dt') ?? textAt(bal, 'Dt/DtTm') ?? ''),
    };
  }
  return null;
}

function readEntry(entry: XNode, index: number): RawRow {
  const where = `line ${entry.line}: <Ntry> ${index}`;
  const status = (textAt(entry, 'Sts/Cd') || textAt(entry, 'Sts') || '').toUpperCase();
  const skip = SKIPPED_STATUS[status] ?? null;
  const amountText = textAt(entry, 'Amt');
  const indicator = textAt(entry, 'CdtDbtInd');
  const dateText =
    textAt(entry, 'BookgDt/Dt') ??
    textAt(entry, 'BookgDt/DtTm') ??
    textAt(entry, 'ValDt/Dt') ??
    textAt(entry, 'ValDt/DtTm');
  const row: RawRow = {
    line: entry.line,
    date: dateText === null ? null : parseIsoDate(dateText),
    amount: null,
    description: entryDescription(entry, indicator),
    external_id: cleanText(textAt(entry, 'AcctSvcrRef') ?? textAt(entry, 'NtryRef')) || null,
    skip_reason: skip,
  };
  const amount = amountText === null ? null : readBankAmount(amountText, '.');
  if (amount !== null && (indicator === 'CRDT' || indicator === 'DBIT')) {
    row.amount = formatBankAmount(indicator === 'DBIT' ? amount.abs().negated() : amount.abs());
  }
  if (skip !== null) return row;
  if (dateText === null) fail(`${where}: BookgDt (and ValDt) is missing`);
  if (row.date === null) fail(`${where}: BookgDt ${quote(dateText)} is not a valid date`);
  if (amountText === null) fail(`${where}: Amt is missing`);
  if (amount === null) fail(`${where}: Amt ${quote(amountText)} is not a number`);
  if (indicator === null) fail(`${where}: CdtDbtInd is missing`);
  if (row.amount === null) fail(`${where}: CdtDbtInd ${quote(indicator)} is neither CRDT nor DBIT`);
  return row;
}

/**
 * Counterparty name (the creditor for a debit, the debtor for a credit, else whichever is named)
 * and remittance information (Ustrd lines, else structured references), joined by " - "; without
 * those, AddtlTxInf or AddtlNtryInf.
 */
function entryDescription(entry: XNode, indicator: string | null): string {
  const details = findAll(entry, 'TxDtls');
  const parties = details.map((d) => child(d, 'RltdPties'));
  const counterparty = indicator === 'DBIT' ? 'Cdtr' : 'Dbtr';
  const otherParty = indicator === 'DBIT' ? 'Dbtr' : 'Cdtr';
  const names =
    unique(parties.map((p) => partyName(p, counterparty))).join(', ') ||
    unique(parties.map((p) => partyName(p, otherParty))).join(', ');
  const remittance = details.flatMap((d) => {
    const info = child(d, 'RmtInf');
    const ustrd = childrenNamed(info, 'Ustrd').map((u) => u.text);
    if (ustrd.length > 0) return ustrd;
    return childrenNamed(info, 'Strd').map((s) => textAt(s, 'CdtrRefInf/Ref') ?? textAt(s, 'AddtlRmtInf') ?? '');
  });
  const main = joinText([names, joinText(unique(remittance))], ' - ');
  if (main !== '') return main;
  const additional = joinText(unique(details.map((d) => textAt(d, 'AddtlTxInf') ?? '')));
  return additional || cleanText(textAt(entry, 'AddtlNtryInf')) || NO_DESCRIPTION;
}

function partyName(parties: XNode | undefined, role: string): string {
  return cleanText(
    textAt(parties, `${role}/Nm`) ?? textAt(parties, `${role}/Pty/Nm`) ?? path(parties, `Ultmt${role}/Nm`)?.text,
  );
}

function unique(values: string[]): string[] {
  return [...new Set(values.map(cleanText).filter((v) => v !== ''))];
}

/** ISO 4217 code; 'XXX' (no currency) counts as none. */
function currencyCode(value: string | null | undefined): string | null {
  const code = cleanText(value).toUpperCase();
  return /^[A-Z]{3}$/.test(code) && code !== 'XXX' ? code : null;
}

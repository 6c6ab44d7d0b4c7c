import { describe, expect, it } from 'vitest';
import { parseFixture as parse, refusal, utf8 } from '../../../test/support/statement-fixtures.ts';
import { parseStatementFile } from './index.ts';

const camt = (entries: string): Uint8Array =>
  utf8(`<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02">
  <BkToCstmrStmt>
    <Stmt>
      <Acct><Id><IBAN>DE00000000000000000000</IBAN></Id><Ccy>EUR</Ccy></Acct>
${entries}
    </Stmt>
  </BkToCstmrStmt>
</Document>
`);

describe('camt.053', () => {
  it('when an entry has related parties and a structured reference, then the counterparty and reference describe it', () => {
    const result = parse('camt053_genkgo_v2_minimal.xml');
    expect(result.format).toBe('camt053');
    expect(result.statements).toEqual([
      {
        account_ref: 'NL26VAYB8060476890',
        currency: 'EUR',
        start_date: '2007-10-18',
        end_date: '2007-10-18',
        // OPBD is in EUR; the CLBD given in SEK is no balance of this EUR statement
        opening_balance: { amount: '18.15', date: '2014-12-30' },
        closing_balance: null,
        transactions: [
          {
            date: '2014-12-31',
            description: 'NAME NAME - 4654654654654654',
            amount: '8.85',
            type: 'credit',
            external_id: null,
          },
        ],
      },
    ]);
  });

  it('when v08 uses Othr/Id, Sts/Cd, BookgDt/DtTm and no Acct/Ccy, then all of them are read', () => {
    const [stmt] = parse('camt053_genkgo_v8.xml').statements;
    expect(stmt).toMatchObject({ account_ref: 'NL26VAYB8060476890', currency: 'EUR' });
    expect(stmt?.transactions).toEqual([
      {
        date: '2014-12-31',
        description: 'NAME NAME - 4654654654654654',
        amount: '8.85',
        type: 'credit',
        external_id: 'AAAASESS-FP-CN_98765/01',
      },
    ]);
  });

  it('when a document holds two Stmt, then two statements come out in order', () => {
    const result = parse('camt053_genkgo_v2_multi_statement.xml');
    expect(result.statements.map((s) => [s.account_ref, s.start_date, s.end_date, s.transactions])).toEqual([
      [
        'NL26VAYB8060476890',
        '2007-10-18',
        '2007-10-18',
        [
          {
            date: '2014-12-31',
            description: 'Company Name 1 - Transaction Description 1',
            amount: '8.85',
            type: 'credit',
            external_id: null,
          },
        ],
      ],
      [
        'NL26VAYB8060476890',
        null,
        null,
        [
          {
            date: '2014-12-31',
            description: 'Company Name 2 - Transaction Description 2',
            amount: '7.00',
            type: 'debit',
            external_id: null,
          },
        ],
      ],
    ]);
  });

  it('when dates carry offsets, amounts lack trailing zeros, text has a newline and an entry is pending, then it reads and the pending entry is skipped', () => {
    const result = parse('camt053_own_v04_timezone_pending.xml');
    expect(result.statements[0]).toMatchObject({
      account_ref: 'CH0000000000000000000',
      currency: 'CHF',
      start_date: '2017-04-01',
      end_date: '2017-04-11',
    });
    expect(result.statements[0]?.transactions).toEqual([
      {
        date: '2017-04-01',
        description: 'Acquisto carta SOCAR 09.04.2017/10:30',
        amount: '905.30',
        type: 'debit',
        external_id: 'REF-0001',
      },
      {
        date: '2017-04-05',
        description: 'Muster & Partner AG - Invoice 2017-17 thank you',
        amount: '38.00',
        type: 'credit',
        external_id: 'NTRY-0002',
      },
      { date: '2017-04-11', description: 'Parking fee', amount: '16.80', type: 'debit', external_id: 'REF-0004' },
    ]);
    expect(result.skipped).toEqual([{ line: 57, reason: 'pending entry (Sts PDNG)' }]);
  });

  it('when amounts are in XXX (no currency), then the statement currency is null', () => {
    const bytes = camt(
      `<Ntry><Amt Ccy="XXX">10.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><Sts>BOOK</Sts><BookgDt><Dt>2016-12-31</Dt></BookgDt></Ntry>`,
    );
    const withoutAcctCcy = utf8(new TextDecoder().decode(bytes).replace('<Ccy>EUR</Ccy>', ''));
    expect(parseStatementFile(withoutAcctCcy).statements[0]?.currency).toBeNull();
  });

  it('when BkToCstmrStmt has no Stmt, then the file is refused naming the element', () => {
    expect(refusal(() => parse('camt053_broken_genkgo_no_statement.xml'))).toBe(
      'line 3: <BkToCstmrStmt> contains no <Stmt> statement',
    );
  });

  it('when a file declares nested entities (billion laughs), then it is refused at once without expanding them', () => {
    expect(refusal(() => parse('camt053_own_billion_laughs.xml'))).toBe(
      'line 2: <!DOCTYPE> and <!ENTITY> declarations are not allowed in a statement file',
    );
  });

  it('when an external entity is declared, then the file is refused and nothing is read', () => {
    const xxe =
      '<?xml version="1.0"?>\n<!DOCTYPE d [<!ENTITY x SYSTEM "file:///etc/passwd">]>\n<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02"><BkToCstmrStmt><Stmt><AddtlStmtInf>&x;</AddtlStmtInf></Stmt></BkToCstmrStmt></Document>';
    expect(refusal(() => parseStatementFile(utf8(xxe)))).toMatch(/^line 2: <!DOCTYPE>/);
  });

  it('when a DOCTYPE hides the camt namespace behind a huge entity, then it is still refused for the DOCTYPE', () => {
    const xml = `<?xml version="1.0"?>\n<!DOCTYPE d [<!ENTITY a "${'x'.repeat(50_000)}">]>\n<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02"><BkToCstmrStmt><Stmt>${'&a;'.repeat(20_000)}</Stmt></BkToCstmrStmt></Document>`;
    expect(refusal(() => parseStatementFile(utf8(xml)))).toBe(
      'line 2: <!DOCTYPE> and <!ENTITY> declarations are not allowed in a statement file',
    );
  });

  it('when the XML is not well-formed, then the line of the first error is named', () => {
    const bytes = camt('<Ntry><Amt Ccy="EUR">1.00</Amt><CdtDbtInd>DBIT</CdtDbtInd>\n</Stmt>');
    expect(refusal(() => parseStatementFile(bytes))).toMatch(/^line 7: XML is not well-formed/);
  });

  it('when an entry lacks its date, amount or direction, then the entry and line are named', () => {
    const one = (entry: string): string => refusal(() => parseStatementFile(camt(`      <Ntry>${entry}</Ntry>`)));
    expect(one('<Amt Ccy="EUR">1.00</Amt><CdtDbtInd>DBIT</CdtDbtInd><Sts>BOOK</Sts>')).toBe(
      'line 6: <Ntry> 1: BookgDt (and ValDt) is missing',
    );
    expect(one('<Amt Ccy="EUR">1.00</Amt><CdtDbtInd>DBIT</CdtDbtInd><BookgDt><Dt>2023-02-30</Dt></BookgDt>')).toBe(
      'line 6: <Ntry> 1: BookgDt "2023-02-30" is not a valid date',
    );
    expect(one('<Amt Ccy="EUR">1,0x</Amt><CdtDbtInd>DBIT</CdtDbtInd><BookgDt><Dt>2023-02-03</Dt></BookgDt>')).toBe(
      'line 6: <Ntry> 1: Amt "1,0x" is not a number',
    );
    expect(one('<Amt Ccy="EUR">1.00</Amt><CdtDbtInd>BOTH</CdtDbtInd><BookgDt><Dt>2023-02-03</Dt></BookgDt>')).toBe(
      'line 6: <Ntry> 1: CdtDbtInd "BOTH" is neither CRDT nor DBIT',
    );
    expect(one('<Amt Ccy="EUR">1.00</Amt><BookgDt><Dt>2023-02-03</Dt></BookgDt>')).toBe(
      'line 6: <Ntry> 1: CdtDbtInd is missing',
    );
  });

  it('when elements carry a namespace prefix, then they are still recognised', () => {
    const xml =
      '<?xml version="1.0"?><c:Document xmlns:c="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02"><c:BkToCstmrStmt><c:Stmt><c:Ntry><c:Amt Ccy="EUR">2.50</c:Amt><c:CdtDbtInd>DBIT</c:CdtDbtInd><c:BookgDt><c:Dt>2024-01-02</c:Dt></c:BookgDt><c:AddtlNtryInf>Fee</c:AddtlNtryInf></c:Ntry></c:Stmt></c:BkToCstmrStmt></c:Document>';
    expect(parseStatementFile(utf8(xml)).statements[0]?.transactions).toEqual([
      { date: '2024-01-02', description: 'Fee', amount: '2.50', type: 'debit', external_id: null },
    ]);
  });

  it('when a file holds more entries than the limit, empty ones included, then it is refused at the first extra entry before its tree is built', () => {
    // The first entry lacks its date: a reader that built the tree first would name that instead.
    const entries = '<Ntry></Ntry>\n'.repeat(4) + '<Ntry/>';
    expect(refusal(() => parseStatementFile(camt(entries), { maxTransactions: 4 }))).toBe(
      'line 10: more than 4 entries',
    );
    expect(refusal(() => parseStatementFile(camt('<c:Ntry/>'.repeat(3)), { maxTransactions: 2 }))).toBe(
      'line 6: more than 2 entries',
    );
    expect(refusal(() => parseStatementFile(camt('<Ntry></Ntry>'), { maxTransactions: 4 }))).toMatch(
      /<Ntry> 1: BookgDt \(and ValDt\) is missing/,
    );
  });
});

describe('camt.053 balances', () => {
  const bal = (code: string, amount: string, indicator: string, date: string) =>
    `<Bal><Tp><CdOrPrtry><Cd>${code}</Cd></CdOrPrtry></Tp><Amt Ccy="EUR">${amount}</Amt><CdtDbtInd>${indicator}</CdtDbtInd><Dt><Dt>${date}</Dt></Dt></Bal>`;

  it('when a statement has OPBD and CLBD, then they are its opening and closing balances, DBIT negative', () => {
    const result = parseStatementFile(
      camt(
        bal('OPBD', '1200.00', 'CRDT', '2026-02-28') +
          bal('CLAV', '9.99', 'CRDT', '2026-03-31') +
          bal('CLBD', '45.10', 'DBIT', '2026-03-31'),
      ),
    );
    expect(result.statements[0]!.opening_balance).toEqual({ amount: '1200.00', date: '2026-02-28' });
    expect(result.statements[0]!.closing_balance).toEqual({ amount: '-45.10', date: '2026-03-31' });
  });

  it('when a statement states no booked balances, then it has none', () => {
    const result = parseStatementFile(camt(bal('CLAV', '9.99', 'CRDT', '2026-03-31')));
    expect(result.statements[0]!.opening_balance).toBeNull();
    expect(result.statements[0]!.closing_balance).toBeNull();
  });
});

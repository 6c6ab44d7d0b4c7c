import { describe, expect, it } from 'vitest';
import { parseFixture as parse, refusal, utf8 } from '../../../test/support/statement-fixtures.ts';
import { parseStatementFile } from './index.ts';
import { UNCLOSED_OFX_NOTE } from './ofx.ts';

const sgml = (transactions: string, extra = ''): Uint8Array =>
  utf8(
    `OFXHEADER:100\nDATA:OFXSGML\nVERSION:102\n\n<OFX>\n<BANKMSGSRSV1>\n<STMTTRNRS>\n<STMTRS>\n<CURDEF>EUR\n<BANKACCTFROM>\n<ACCTID>1\n</BANKACCTFROM>\n<BANKTRANLIST>\n${transactions}</BANKTRANLIST>\n${extra}</STMTRS>\n</STMTTRNRS>\n</BANKMSGSRSV1>\n</OFX>\n`,
  );

describe('OFX 1.x (SGML)', () => {
  it('when leaf tags are unclosed and NAME is MEMO cut at 32 characters, then the full MEMO is the description', () => {
    const result = parse('ofx1_ofxparse_checking_usd.ofx');
    expect(result.format).toBe('ofx');
    const [stmt] = result.statements;
    expect(stmt).toMatchObject({
      account_ref: '1452687~7',
      currency: 'USD',
      start_date: '2000-01-01',
      end_date: '2013-05-25',
    });
    expect(stmt?.transactions).toHaveLength(3);
    expect(stmt?.transactions[0]).toEqual({
      date: '2011-03-31',
      description:
        'DIVIDEND EARNED FOR PERIOD OF 03/01/2011 THROUGH 03/31/2011 ANNUAL PERCENTAGE YIELD EARNED IS 0.05%',
      amount: '0.01',
      type: 'credit',
      external_id: '0000486',
    });
    expect(stmt?.transactions[2]).toMatchObject({
      date: '2011-04-07',
      amount: '25.00',
      type: 'debit',
      external_id: '0000488',
    });
  });

  it('when dates carry a [-5:EST] suffix and groups share a line, then the written date is kept', () => {
    const [stmt] = parse('ofx1_ofxparse_bank_medium_cad.ofx').statements;
    expect(stmt).toMatchObject({ account_ref: '12300 000012345678', currency: 'CAD' });
    expect(stmt?.transactions.map((t) => [t.date, t.amount, t.type])).toEqual([
      ['2009-04-01', '6.60', 'debit'],
      ['2009-04-02', '316.67', 'debit'],
      ['2009-04-03', '22.00', 'debit'],
    ]);
    expect(stmt?.transactions[0]?.description).toBe("POS MERCHANDISE;MCDONALD'S #112");
  });

  it('when one STMTTRNRS holds two STMTRS in cp1252 with trailing spaces, then two statements come out', () => {
    const result = parse('ofx1_bancodobrasil_two_stmtrs_cp1252.ofx');
    expect(result.encoding).toBe('windows-1252');
    expect(
      result.statements.map((s) => [s.account_ref, s.currency, s.start_date, s.end_date, s.transactions.length]),
    ).toEqual([
      ['455000-5', 'BRL', '2017-02-20', '2017-02-20', 0],
      ['655000-2', 'BRL', '2017-02-24', '2017-03-29', 36],
    ]);
    const rows = result.statements[1]?.transactions ?? [];
    expect(rows[0]).toEqual({
      date: '2017-03-01',
      description: 'TED-CRÉDITO EM CONTA',
      amount: '13318.36',
      type: 'credit',
      external_id: '2017030101331836',
    });
    expect(rows[35]).toEqual({
      date: '2017-03-27',
      description: 'TARIFA PACOTE DE SERVIÇOS',
      amount: '68.00',
      type: 'debit',
      external_id: '2017032716800',
    });
  });

  it('when two STMTTRNRS carry plus-signed amounts and a 0.00 row, then two statements come out and the zero row is skipped', () => {
    const result = parse('ofx1_own_plus_sign_two_accounts.ofx');
    expect(result.statements.map((s) => s.transactions.length)).toEqual([3, 2]);
    expect(result.statements[0]?.transactions[1]).toMatchObject({
      date: '2022-07-01',
      amount: '500.00',
      type: 'credit',
      description: 'VIR SALAIRE - Salaire juin',
    });
    expect(result.statements[0]?.transactions[0]?.description).toBe('130722 CB****0000 - SUPERMARCHE DU COIN');
    expect(result.statements[0]?.transactions[2]?.description).toBe('Café & Co');
    expect(result.statements[1]?.transactions[0]).toMatchObject({
      date: '2022-07-13',
      amount: '2560.00',
      type: 'credit',
    });
    expect(result.skipped).toEqual([{ line: 56, reason: 'zero amount (nothing to book)' }]);
  });

  it('when every element is closed, values are empty and the currency is only in CURSYM, then the transaction still reads', () => {
    const [stmt] = parse('ofx1_ofxparse_v102_empty_tags.ofx').statements;
    expect(stmt).toMatchObject({
      account_ref: '12345678',
      currency: 'AUD',
      start_date: '2018-05-06',
      end_date: '2018-08-04',
    });
    expect(stmt?.transactions).toEqual([
      { date: '2018-05-07', description: 'CBA:Transfer', amount: '12.34', type: 'credit', external_id: null },
    ]);
  });

  it('when </BANKTRANLIST> is missing (Nubank), then the list closes with its statement', () => {
    const [stmt] = parse('ofx1_own_creditcard_no_banktranlist_end.ofx').statements;
    expect(stmt).toMatchObject({
      account_ref: 'card-0001',
      currency: 'BRL',
      start_date: '2024-03-01',
      end_date: '2024-03-31',
    });
    expect(stmt?.transactions.map((t) => [t.date, t.amount, t.type, t.description])).toEqual([
      ['2024-03-25', '42.90', 'debit', 'Padaria Central'],
      ['2024-03-10', '150.00', 'credit', 'Pagamento recebido'],
      ['2024-03-02', '7.50', 'debit', 'Estacionamento'],
    ]);
  });

  it('when a CRLF statement has no STMTTRN and an empty ACCTID, then it is a valid empty statement', () => {
    const result = parse('ofx1_own_empty_statement_crlf.ofx');
    expect(result.statements).toEqual([
      {
        account_ref: null,
        currency: 'EUR',
        start_date: '2025-09-02',
        end_date: '2025-10-04',
        // an empty BALAMT is no balance
        opening_balance: null,
        closing_balance: null,
        transactions: [],
      },
    ]);
  });

  it('when the header says CHARSET:8859-1 (QFX), then accented names decode', () => {
    const result = parse('qfx_actual_cad_8859-1.qfx');
    expect(result.encoding).toBe('iso-8859-1');
    expect(result.statements[0]?.transactions).toEqual([
      {
        date: '2022-10-19',
        description: 'Paiement facture/Carte prépayée - PWW',
        amount: '20.00',
        type: 'debit',
        external_id: 'wSoKuCS77',
      },
    ]);
  });

  it('when an empty NAME leaf is left unclosed before MEMO, then MEMO stays in the transaction', () => {
    const result = parseStatementFile(
      sgml('<STMTTRN>\n<TRNTYPE>DEBIT\n<DTPOSTED>20240105\n<TRNAMT>-3.00\n<NAME>\n<MEMO>Kiosk\n</STMTTRN>\n'),
    );
    expect(result.statements[0]?.transactions).toEqual([
      { date: '2024-01-05', description: 'Kiosk', amount: '3.00', type: 'debit', external_id: null },
    ]);
  });
});

describe('OFX as banks write it', () => {
  it('when a card file has no header, a STMTTRN left open and </CCACCTFROM> after the list, then all three transactions and the balance read', () => {
    const result = parse('ofx1_own_card_no_header_late_close.ofx');
    expect(result.skipped).toEqual([]);
    const [stmt] = result.statements;
    expect(stmt).toMatchObject({
      account_ref: '4111222233334444',
      currency: 'USD',
      start_date: '2024-01-01',
      end_date: '2024-01-31',
      closing_balance: { amount: '-308.16', date: '2024-01-31' },
    });
    expect(stmt?.transactions.map((t) => [t.date, t.amount, t.type, t.description, t.external_id])).toEqual([
      ['2024-01-03', '42.17', 'debit', 'WHOLEFDS MKT #10234', '2024010324692163'],
      ['2024-01-12', '15.99', 'debit', 'NETFLIX.COM - 866-579-7172 CA', '2024011224692164'],
      ['2024-01-25', '250.00', 'credit', 'PAYMENT - THANK YOU', '2024012524692165'],
    ]);
  });

  it('when XML without a header closes tags out of order and twice, then the stray end tags are ignored', () => {
    const bytes = utf8(
      [
        '<OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><CURDEF>EUR</CURDEF>',
        '<BANKACCTFROM><ACCTID>DE02100100100006820101</ACCTID></BANKACCTFROM>',
        '<BANKTRANLIST>',
        '<STMTTRN><DTPOSTED>20240301</DTPOSTED><TRNAMT>-9.90</TRNAMT><NAME>Kiosk</MEMO></NAME></STMTTRN>',
        '<STMTTRN><DTPOSTED>20240302</DTPOSTED><TRNAMT>1200.00</TRNAMT><NAME>Gehalt</NAME>',
        '</BANKTRANLIST></STMTTRN></STMTTRN>',
        '<LEDGERBAL><BALAMT>1190.10</BALAMT><DTASOF>20240302</DTASOF></STMTRS></LEDGERBAL>',
        '</STMTTRNRS></BANKMSGSRSV1></OFX>',
      ].join('\n'),
    );
    const [stmt] = parseStatementFile(bytes).statements;
    expect(stmt?.transactions.map((t) => [t.date, t.amount, t.type, t.description])).toEqual([
      ['2024-03-01', '9.90', 'debit', 'Kiosk'],
      ['2024-03-02', '1200.00', 'credit', 'Gehalt'],
    ]);
    expect(stmt?.closing_balance).toEqual({ amount: '1190.10', date: '2024-03-02' });
  });

  it('when the file ends before </OFX>, then its transactions read and a note on the last line says it may be cut short', () => {
    const bytes = utf8(
      'OFXHEADER:100\n\n<OFX>\n<BANKMSGSRSV1>\n<STMTTRNRS>\n<STMTRS>\n<BANKTRANLIST>\n<STMTTRN>\n<DTPOSTED>20240101\n<TRNAMT>-5.00\n<NAME>Bakery\n',
    );
    const result = parseStatementFile(bytes);
    expect(result.statements[0]?.transactions).toHaveLength(1);
    expect(result.skipped).toEqual([{ line: 11, reason: UNCLOSED_OFX_NOTE }]);
  });
});

describe('OFX 2.x (XML) and QFX', () => {
  it('when the file is well-formed OFX 2 XML, then it parses and a leading-zero ACCTID stays a string', () => {
    const [stmt] = parse('ofx2_asgrim_savings_usd.ofx').statements;
    expect(stmt).toMatchObject({
      account_ref: '098-121',
      currency: 'USD',
      start_date: '2007-01-01',
      end_date: '2007-10-15',
    });
    expect(stmt?.transactions.map((t) => [t.date, t.amount, t.type])).toEqual([
      ['2007-03-15', '200.00', 'credit'],
      ['2007-03-29', '150.00', 'credit'],
      ['2007-07-09', '100.00', 'debit'],
    ]);
  });

  it('when NAME and MEMO are CDATA with trailing spaces, then the longer MEMO is the description', () => {
    const [stmt] = parse('ofx2_suncorp_cdata_aud.ofx').statements;
    expect(stmt?.transactions).toEqual([
      {
        date: '2013-12-15',
        description: 'EFTPOS WDL HANDYWAY ALDI STORE GEELONG WEST VICAU',
        amount: '16.85',
        type: 'debit',
        external_id: '1',
      },
    ]);
  });

  it('when an OFX 2 file leaves its leaf tags unclosed, then the SGML reader takes over', () => {
    const [stmt] = parse('ofx2_anz_creditcard_unclosed_tags.ofx').statements;
    expect(stmt).toMatchObject({ account_ref: '1234123412341234', currency: 'AUD' });
    expect(stmt?.transactions).toEqual([
      { date: '2017-05-08', description: 'SOME MEMO', amount: '5.50', type: 'debit', external_id: '201705080001' },
    ]);
  });

  it('when amounts use a decimal comma and there is no NAME or MEMO, then amounts read and TRNTYPE/CHECKNUM describe', () => {
    const [stmt] = parse('ofx2_own_decimal_comma.ofx').statements;
    expect(stmt?.transactions).toEqual([
      { date: '2005-10-04', description: 'CHECK 1000', amount: '200.00', type: 'debit', external_id: '00002' },
      { date: '2005-10-20', description: 'ATM', amount: '1234.50', type: 'debit', external_id: '00003' },
    ]);
  });

  it('when a QFX starts with <?OFX and no XML declaration, then it parses in file order', () => {
    const [stmt] = parse('qfx_own_ofx202_no_xml_declaration.qfx').statements;
    expect(stmt?.transactions.map((t) => [t.date, t.amount, t.type, t.description])).toEqual([
      ['2023-02-28', '0.01', 'credit', 'Monthly Interest Paid'],
      ['2023-02-01', '100.00', 'debit', 'Withdrawal to Other Bank'],
      ['2023-01-12', '444.55', 'credit', 'Deposit from EXAMPLE PAYROLL'],
    ]);
  });
});

describe('broken OFX files', () => {
  it('when a STMTTRN has no DTPOSTED, then the file is refused naming the transaction and line', () => {
    expect(refusal(() => parse('ofx1_broken_ofxparse_date_missing.ofx'))).toBe(
      'line 33: <STMTTRN> 1: DTPOSTED is missing',
    );
  });

  it('when </BANKTRANLIST> appears twice with a STMTTRN between, then the STMTTRN left outside the list is named', () => {
    expect(refusal(() => parse('qfx_own_broken_misplaced_stmttrn.qfx'))).toBe(
      'line 36: <STMTTRN> lies outside <BANKTRANLIST> in <STMTRS>',
    );
  });

  it('when a STMTTRN sits outside BANKTRANLIST, then the file is refused', () => {
    const bytes = sgml('', '<STMTTRN>\n<DTPOSTED>20240101\n<TRNAMT>1.00\n</STMTTRN>\n');
    expect(refusal(() => parseStatementFile(bytes))).toBe('line 15: <STMTTRN> lies outside <BANKTRANLIST> in <STMTRS>');
  });

  it('when DTPOSTED is empty, impossible or TRNAMT is not a number, then the message says which', () => {
    const one = (body: string): string => refusal(() => parseStatementFile(sgml(`<STMTTRN>\n${body}</STMTTRN>\n`)));
    expect(one('<DTPOSTED>\n<TRNAMT>1.00\n')).toBe('line 14: <STMTTRN> 1: DTPOSTED is empty');
    expect(one('<DTPOSTED>20230230\n<TRNAMT>1.00\n')).toBe(
      'line 14: <STMTTRN> 1: DTPOSTED "20230230" is not a valid date',
    );
    expect(one('<DTPOSTED>20230201\n<TRNAMT>12,3x\n')).toBe('line 14: <STMTTRN> 1: TRNAMT "12,3x" is not a number');
    expect(one('<DTPOSTED>20230201\n')).toBe('line 14: <STMTTRN> 1: TRNAMT is missing');
  });

  it('when the file ends inside a transaction, then that transaction is refused for what it lacks', () => {
    const bytes = utf8(
      'OFXHEADER:100\n\n<OFX>\n<BANKMSGSRSV1>\n<STMTTRNRS>\n<STMTRS>\n<BANKTRANLIST>\n<STMTTRN>\n<DTPOSTED>20240101\n',
    );
    expect(refusal(() => parseStatementFile(bytes))).toBe('line 8: <STMTTRN> 1: TRNAMT is missing');
  });

  it('when OFX holds only an investment statement or no statement, then it is refused', () => {
    expect(
      refusal(() =>
        parseStatementFile(
          utf8('<OFX><INVSTMTMSGSRSV1><INVSTMTTRNRS><INVSTMTRS></INVSTMTRS></INVSTMTTRNRS></INVSTMTMSGSRSV1></OFX>'),
        ),
      ),
    ).toBe('line 1: <INVSTMTRS> investment statements are not supported');
    expect(refusal(() => parseStatementFile(utf8('<OFX><SIGNONMSGSRSV1></SIGNONMSGSRSV1></OFX>')))).toBe(
      'no <STMTRS> or <CCSTMTRS> statement in the OFX file',
    );
  });

  it('when a file holds more transactions than the limit, empty ones included, then it is refused at the first extra one before its tree is built', () => {
    // The first transaction has no date: a reader that built the tree first would name that instead.
    const bytes = sgml('<STMTTRN>\n</STMTTRN>\n'.repeat(3));
    expect(refusal(() => parseStatementFile(bytes, { maxTransactions: 2 }))).toBe('line 18: more than 2 transactions');
  });
});

describe('OFX balances', () => {
  it('when a statement has a LEDGERBAL, then it is the closing balance at its DTASOF, as the bank signs it', () => {
    const checking = parse('ofx1_ofxparse_checking_usd.ofx').statements[0]!;
    expect(checking.closing_balance).toEqual({ amount: '100.99', date: '2013-05-25' });
    expect(checking.opening_balance).toBeNull();
    // a card: the amount owed is written negative
    const card = parse('ofx2_anz_creditcard_unclosed_tags.ofx').statements[0]!;
    expect(card.closing_balance?.amount.startsWith('-')).toBe(true);
  });
});

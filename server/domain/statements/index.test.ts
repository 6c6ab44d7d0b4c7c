import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fixture, fixtureNames as allFixtureNames, refusal, utf8 } from '../../../test/support/statement-fixtures.ts';
import { DomainError } from '../errors.ts';
import { LIMITS, detectFormat, parseStatementFile } from './index.ts';

const fixtureNames = allFixtureNames();

/** Runs both entry points; anything thrown must be our DomainError. */
function onlyDomainErrors(bytes: Uint8Array): void {
  detectFormat(bytes);
  try {
    parseStatementFile(bytes);
  } catch (error) {
    if (!(error instanceof DomainError) || error.code !== 'INVALID_STATEMENT_FILE') throw error;
  }
}

describe('parseStatementFile', () => {
  it('when any non-broken fixture is parsed, then every transaction has a real date, a positive amount and a description', () => {
    for (const name of fixtureNames.filter((n) => !n.includes('broken') && !n.includes('laughs'))) {
      const result = parseStatementFile(fixture(name));
      expect(result.statements.length, name).toBeGreaterThan(0);
      for (const t of result.statements.flatMap((s) => s.transactions)) {
        expect(t.date, name).toMatch(/^\d{4}-\d{2}-\d{2}$/);
        expect(t.amount, name).toMatch(/^\d+\.\d{2,}$/);
        expect(Number(t.amount), name).toBeGreaterThan(0);
        expect(t.description.length, name).toBeGreaterThan(0);
        expect(t.description, name).toBe(t.description.trim().replace(/\s+/g, ' '));
      }
    }
  });

  it('when the file is empty, whitespace or binary, then it is refused', () => {
    expect(refusal(() => parseStatementFile(new Uint8Array()))).toBe('the file is empty');
    expect(refusal(() => parseStatementFile(utf8(' \n\t\n')))).toBe('the file is empty (only whitespace)');
    expect(refusal(() => parseStatementFile(new Uint8Array([0x25, 0x50, 0x44, 0x46, 0x0a, 0x00, 0x01])))).toBe(
      'line 2: binary data (NUL byte): not a bank statement file',
    );
    expect(refusal(() => parseStatementFile(utf8('Dear customer,\nplease find attached.')))).toBe(
      'unknown format: the file is not CSV, OFX/QFX, QIF or camt.053',
    );
    expect(refusal(() => parseStatementFile(utf8(`Date,Amount,${'x,'.repeat(1_000_000)}\n2026-01-01,1.00\n`)))).toBe(
      'line 1: longer than 65536 characters; the file is not CSV, OFX/QFX, QIF or camt.053',
    );
  });

  it('when a format is forced, then that parser runs; an unknown format name is refused', () => {
    expect(refusal(() => parseStatementFile(fixture('qif_own_mdyy_splits.qif'), { format: 'ofx' }))).toBe(
      'no <OFX> element: not an OFX file',
    );
    expect(refusal(() => parseStatementFile(utf8('<OFX></OFX>\ntrailing words'), { format: 'ofx' }))).toBe(
      'line 2: text "trailing words" outside any element',
    );
    expect(refusal(() => parseStatementFile(utf8('x'), { format: 'pdf' as never }))).toBe('unknown format "pdf"');
  });

  it('when there are more transactions than maxTransactions, then the file is refused at the first extra one', () => {
    expect(
      refusal(() => parseStatementFile(fixture('ofx1_ofxparse_checking_usd.ofx'), { maxTransactions: 2 })),
    ).toMatch(/^line \d+: more than 2 transactions$/);
    expect(
      refusal(() => parseStatementFile(fixture('csv_lloyds_uk_debit_credit_ddmmyyyy.csv'), { maxTransactions: 5 })),
    ).toBe('line 7: more than 5 transactions');
    expect(refusal(() => parseStatementFile(fixture('qif_own_mdyy_splits.qif'), { maxTransactions: 3 }))).toBe(
      'line 28: more than 3 transactions',
    );
    expect(
      refusal(() => parseStatementFile(fixture('camt053_genkgo_v2_multi_statement.xml'), { maxTransactions: 1 })),
    ).toMatch(/^line \d+: more than 1 entries$/);
    expect(
      parseStatementFile(fixture('ofx1_ofxparse_checking_usd.ofx'), { maxTransactions: 3 }).statements[0]?.transactions,
    ).toHaveLength(3);
    expect(LIMITS.maxTransactions).toBe(100_000);
  });

  it('when an encoding is forced, then it is used and reported', () => {
    const result = parseStatementFile(fixture('csv_sparkasse_freiburg_latin1.csv'), { encoding: 'windows-1252' });
    expect(result.encoding).toBe('windows-1252');
    expect(result.statements[0]?.transactions[0]?.description).toContain('abzügl.');
  });

  it('when a description is longer than 1000 characters, then it is cut with an ellipsis', () => {
    const long = 'x'.repeat(1500);
    const result = parseStatementFile(utf8(`Date,Description,Amount\n2024-01-01,${long},1.00\n`));
    const description = result.statements[0]?.transactions[0]?.description ?? '';
    expect(description).toHaveLength(1000);
    expect(description.endsWith('…')).toBe(true);
  });

  it('when OFX or XML nesting is absurdly deep, then it is refused at the 65th level', () => {
    expect(refusal(() => parseStatementFile(utf8(`OFXHEADER:100\n<OFX>${'<AGG>'.repeat(100_000)}</OFX>`)))).toBe(
      'line 2: elements are nested more than 64 deep',
    );
    expect(
      refusal(() =>
        parseStatementFile(
          utf8(
            `<?xml version="1.0"?><Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02"><BkToCstmrStmt>${'<a>'.repeat(50_000)}${'</a>'.repeat(50_000)}</BkToCstmrStmt></Document>`,
          ),
        ),
      ),
    ).toBe('<Document>: elements are nested more than 64 deep');
  });
});

describe('property: garbage never throws anything but DomainError', () => {
  const tokens = [
    'OFXHEADER:100\n',
    '<OFX>',
    '</OFX>',
    '<STMTRS>',
    '</STMTRS>',
    '<BANKTRANLIST>',
    '</BANKTRANLIST>',
    '<STMTTRN>',
    '</STMTTRN>',
    '<DTPOSTED>20200101',
    '<TRNAMT>-1.00',
    '<NAME>x',
    '<![CDATA[',
    ']]>',
    '<?xml version="1.0"?>',
    '<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02">',
    '<BkToCstmrStmt>',
    '<Stmt>',
    '</Stmt>',
    '<Ntry>',
    '</Ntry>',
    '<Amt Ccy="EUR">1</Amt>',
    '<CdtDbtInd>DBIT</CdtDbtInd>',
    '<BookgDt><Dt>2020-01-01</Dt></BookgDt>',
    '!Type:Bank\n',
    'D1/2/03\n',
    'T-1,00\n',
    '^\n',
    'Datum;Betrag;Text\n',
    '01.02.2020;-1,00;x\n',
    'Date,Amount,Description\n',
    '1/2/2020,"$1,000.00",y\n',
    'CHARSET:1259\n',
    'CHARSET:8859-1\n',
    'ENCODING:UTF-8\n',
    '<?xml version="1.0" encoding="x-unknown"?>',
    '&amp;',
    '&#0;',
    '\u00ff\u00fe',
    '"',
    ';',
    ',',
    '\n',
    '\r\n',
    '\u00e4',
    '<',
    '>',
    '/',
    '\t',
  ];

  it('when the input is random bytes, then only DomainError is thrown', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 4096 }), (bytes) => onlyDomainErrors(bytes)),
      { numRuns: 400 },
    );
  });

  it('when the input is a random mix of format tokens, then only DomainError is thrown', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...tokens), { maxLength: 60 }), (parts) =>
        onlyDomainErrors(utf8(parts.join(''))),
      ),
      { numRuns: 1500 },
    );
  });

  it('when real fixtures are randomly damaged, then only DomainError is thrown', () => {
    const files = fixtureNames.map((name) => Buffer.from(fixture(name)).toString('latin1'));
    const edit = fc.tuple(fc.nat(), fc.nat({ max: 8 }), fc.constantFrom(...tokens, '', '9', 'x'));
    fc.assert(
      fc.property(fc.constantFrom(...files), fc.array(edit, { maxLength: 5 }), (file, edits) => {
        let text = file;
        for (const [at, remove, insert] of edits) {
          const i = at % (text.length + 1);
          text = text.slice(0, i) + insert + text.slice(i + remove);
        }
        onlyDomainErrors(new Uint8Array(Buffer.from(text, 'latin1')));
      }),
      { numRuns: 1500 },
    );
  });
});

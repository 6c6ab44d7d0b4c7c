import { describe, expect, it } from 'vitest';
import { fixture, fixtureNames, utf8 } from '../../../test/support/statement-fixtures.ts';
import { detectFormat } from './index.ts';

describe('detectFormat', () => {
  it('when each fixture is sniffed, then its name prefix gives its format (QFX is OFX)', () => {
    const expected: Record<string, string> = {
      ofx1: 'ofx',
      ofx2: 'ofx',
      qfx: 'ofx',
      qbo: 'ofx',
      qif: 'qif',
      camt053: 'camt053',
      csv: 'csv',
    };
    const names = fixtureNames();
    expect(names.length).toBeGreaterThan(30);
    for (const name of names)
      expect([name, detectFormat(fixture(name))]).toEqual([name, expected[name.split('_')[0] ?? '']]);
  });

  it('when an OFX body has no header at all, then it is still OFX', () => {
    expect(detectFormat(utf8('\r\n\r\n<OFX>\r\n<SIGNONMSGSRSV1>'))).toBe('ofx');
  });

  it('when a QIF starts with comment lines or !Option, then it is QIF', () => {
    expect(detectFormat(utf8('### exported\n!Type:Bank\nD1/1/20\nT1\n^\n'))).toBe('qif');
    expect(detectFormat(utf8('!Option:AutoSwitch\n!Account\nNChecking\n^\n'))).toBe('qif');
  });

  it('when XML is neither OFX nor camt.053, then the format is unknown', () => {
    expect(
      detectFormat(
        utf8(
          '<?xml version="1.0"?><Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.052.001.02"><BkToCstmrAcctRpt/></Document>',
        ),
      ),
    ).toBeNull();
    expect(detectFormat(utf8('<html><body>hi</body></html>'))).toBeNull();
  });

  it('when bytes are empty, binary or a single line of prose, then the format is unknown', () => {
    expect(detectFormat(new Uint8Array())).toBeNull();
    expect(detectFormat(new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0x00, 0x00, 0x08, 0x00]))).toBeNull();
    expect(detectFormat(new Uint8Array(Array.from({ length: 400 }, (_, i) => (i * 7919) % 32)))).toBeNull();
    expect(detectFormat(utf8('Dear customer, your statement is attached.'))).toBeNull();
  });
});

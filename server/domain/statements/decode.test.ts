import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { fixture } from '../../../test/support/statement-fixtures.ts';
import { decodeBytes } from './decode.ts';

const bytes = (text: string, encoding: string): Uint8Array => new Uint8Array(iconv.encode(text, encoding));

describe('decodeBytes', () => {
  it('when the file starts with a UTF-8 BOM, then it is UTF-8 and the BOM is gone', () => {
    const { text, encoding } = decodeBytes(fixture('csv_dkb_tagesgeld_utf8bom_preamble.csv'));
    expect(encoding).toBe('utf-8');
    expect(text.startsWith('"Tagesgeld"')).toBe(true);
    expect(text).toContain('Zahlungsempfänger*in');
  });

  it('when the file starts with a UTF-16 BOM, then it is decoded as UTF-16', () => {
    const le = new Uint8Array([0xff, 0xfe, ...iconv.encode('Datum;Betrag\n01.01.2024;-1,00 €\n', 'utf-16le')]);
    expect(decodeBytes(le)).toEqual({ text: 'Datum;Betrag\n01.01.2024;-1,00 €\n', encoding: 'utf-16le' });
    const be = new Uint8Array([0xfe, 0xff, ...iconv.encode('Ä', 'utf-16be')]);
    expect(decodeBytes(be)).toEqual({ text: 'Ä', encoding: 'utf-16be' });
  });

  it('when an OFX header says CHARSET:1252, then windows-1252 is used', () => {
    const { text, encoding } = decodeBytes(fixture('ofx1_bancodobrasil_two_stmtrs_cp1252.ofx'));
    expect(encoding).toBe('windows-1252');
    expect(text).toContain('TED-CRÉDITO EM CONTA');
  });

  it('when an OFX header says ENCODING:USASCII but CHARSET:8859-1, then ISO-8859-1 is used', () => {
    const { text, encoding } = decodeBytes(fixture('qfx_actual_cad_8859-1.qfx'));
    expect(encoding).toBe('iso-8859-1');
    expect(text).toContain('Carte prépayée');
  });

  it('when an OFX header says ENCODING:UTF-8, then UTF-8 is used', () => {
    const ofx = 'OFXHEADER:100\nDATA:OFXSGML\nVERSION:102\nENCODING:UTF-8\nCHARSET:NONE\n\n<OFX><NAME>Zürich</OFX>';
    expect(decodeBytes(bytes(ofx, 'utf-8'))).toEqual({ text: ofx, encoding: 'utf-8' });
  });

  it('when the declared charset does not exist, then detection carries on', () => {
    const ofx = 'OFXHEADER:100\nDATA:OFXSGML\nCHARSET:1259\n\n<OFX><NAME>Zürich</OFX>';
    expect(decodeBytes(bytes(ofx, 'utf-8'))).toEqual({ text: ofx, encoding: 'utf-8' });
    const xml = '<?xml version="1.0" encoding="x-nonsense-42"?><Document/>';
    expect(decodeBytes(bytes(xml, 'utf-8'))).toEqual({ text: xml, encoding: 'utf-8' });
  });

  it('when an XML declaration names an encoding, then that encoding is used', () => {
    const xml = '<?xml version="1.0" encoding="ISO-8859-15"?><Document><Nm>Crème €</Nm></Document>';
    expect(decodeBytes(bytes(xml, 'iso-8859-15'))).toEqual({ text: xml, encoding: 'iso-8859-15' });
  });

  it('when a file declares UTF-8 but its bytes are not UTF-8, then the declaration is ignored', () => {
    const xml = '<?xml version="1.0" encoding="UTF-8"?><Document><Nm>Müller und Söhne, Straße</Nm></Document>';
    const { text, encoding } = decodeBytes(bytes(xml, 'latin1'));
    expect(encoding).not.toBe('utf-8');
    expect(text).toContain('Müller und Söhne, Straße');
  });

  it('when there is no BOM or declaration and the bytes are valid UTF-8, then it is UTF-8', () => {
    expect(decodeBytes(fixture('csv_ubs_ch_apostrophe_debit_credit.csv')).encoding).toBe('utf-8');
    expect(decodeBytes(fixture('csv_lloyds_uk_debit_credit_ddmmyyyy.csv')).encoding).toBe('utf-8');
  });

  it('when German text is in ISO-8859-1, then chardet picks ISO-8859-1', () => {
    const { text, encoding } = decodeBytes(fixture('csv_sparkasse_freiburg_latin1.csv'));
    expect(encoding).toBe('iso-8859-1');
    expect(text).toContain('abzügl. Schulden');
  });

  it('when Latin-1 looking text has bytes 0x80–0x9F, then it is read as windows-1252 (€, „ “)', () => {
    const { text, encoding } = decodeBytes(fixture('csv_own_de_cp1252_preamble.csv'));
    expect(encoding).toBe('windows-1252');
    expect(text).toContain('Strauß „Rosen“ – 5 € Rabatt');
  });

  it('when Lithuanian text is in windows-1257, then chardet picks windows-1257', () => {
    const { text, encoding } = decodeBytes(fixture('csv_own_lt_cp1257_multiline.csv'));
    expect(encoding).toBe('windows-1257');
    expect(text).toContain('Paslaugų mokestis');
  });

  it('when chardet has no clear single-byte guess, then windows-1252 is the fallback', () => {
    // chardet rates this tiny sample ISO-8859-9 and KOI8-R equally.
    expect(decodeBytes(new Uint8Array([0x41, 0x3b, 0x42, 0x0a, 0xe9, 0x3b, 0x31]))).toEqual({
      text: 'A;B\né;1',
      encoding: 'windows-1252',
    });
    expect(decodeBytes(new Uint8Array([0x81, 0x8d, 0x8f, 0x90, 0x9d])).encoding).toBe('windows-1252');
  });

  it('when an encoding is forced, then it wins over detection; an unknown name is refused', () => {
    expect(decodeBytes(bytes('Grüße', 'utf-8'), 'latin1').text).toBe('Gr\u00c3\u00bc\u00c3\u009fe');
    expect(() => decodeBytes(bytes('x', 'utf-8'), 'klingon-8')).toThrow(/unknown encoding "klingon-8"/);
  });

  it('when short bank CSVs are in EUC-JP, Shift_JIS, EUC-KR or GB18030, then each is detected and its payees read', () => {
    const cases: [string, string, string][] = [
      ['csv_own_jp_eucjp_withdrawal_deposit.csv', 'euc-jp', '東京スーパー'],
      ['csv_own_jp_sjis_quoted.csv', 'shift_jis', 'コンビニ　ローソン'],
      ['csv_own_kr_euckr_short.csv', 'euc-kr', '이마트 성수점'],
      ['csv_own_cn_gb18030_short.csv', 'gb18030', '上海星辰科技有限公司'],
    ];
    for (const [name, encoding, payee] of cases) {
      const decoded = decodeBytes(fixture(name));
      expect(decoded.encoding, name).toBe(encoding);
      expect(decoded.text, name).toContain(payee);
    }
  });

  it('when a two-line file holds one CJK payee, then its encoding is still found', () => {
    const line = (payee: string) => `Date,Payee,Amount\n2024-01-05,${payee},-1280\n`;
    expect(decodeBytes(bytes(line('ローソン'), 'euc-jp')).encoding).toBe('euc-jp');
    expect(decodeBytes(bytes(line('이마트'), 'euc-kr')).encoding).toBe('euc-kr');
    expect(decodeBytes(bytes(line('京东商城'), 'gb18030')).encoding).toBe('gb18030');
    expect(decodeBytes(bytes(line('東京スーパー'), 'shift_jis')).encoding).toBe('shift_jis');
  });

  it('when a two-line file is Latin text in a single-byte encoding, then no CJK encoding is taken', () => {
    const latin: [string, string][] = [
      ['Date;Payee;Amount\n05.01.2024;Müller;-12,50\n', 'windows-1252'],
      ['Fecha;Concepto;Importe\n05/01/2024;Año nuevo señor;-12,50\n', 'iso-8859-1'],
      ['Data;Descrição;Valor\n05/01/2024;Pão de Açúcar;-12,50\n', 'iso-8859-1'],
      ['Dátum;Leírás;Összeg\n05.01.2024;Élelmiszer;-12,50\n', 'iso-8859-1'],
      ['Date;Libellé;Montant\n05/01/2024;Crédit Agricole;-12,50\n', 'iso-8859-1'],
      ['Datum;Popis;Částka\n05.01.2024;Nákup potravin Žďár;-12,50\n', 'windows-1250'],
    ];
    for (const [text, encoding] of latin) {
      const decoded = decodeBytes(bytes(text, encoding));
      expect(['shift_jis', 'euc-jp', 'euc-kr', 'gb18030', 'big5'], text).not.toContain(decoded.encoding);
    }
  });

  it('when an EUC-JP file is read as windows-1252 by choice, then the payee is mojibake, as the person sees before choosing again', () => {
    const { text } = decodeBytes(fixture('csv_own_jp_eucjp_withdrawal_deposit.csv'), 'windows-1252');
    expect(text).not.toContain('東京スーパー');
    expect(text).toContain('Åìµþ¥¹¡¼¥Ñ¡¼');
  });
});

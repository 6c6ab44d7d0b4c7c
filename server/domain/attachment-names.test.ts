import { describe, expect, it } from 'vitest';
import { asciiFallback, attachmentName } from './attachment-names.ts';

const PDF = ['pdf'];
const JPEG = ['jpg', 'jpeg'];

describe('attachmentName', () => {
  it('when the name climbs folders, then only its last segment is kept', () => {
    expect(attachmentName('../../etc/passwd', PDF, 200)).toBe('passwd.pdf');
    expect(attachmentName('..\\..\\windows\\win.ini', PDF, 200)).toBe('win.ini.pdf');
  });

  it('when the name holds NUL and control characters, then they are dropped', () => {
    expect(attachmentName('rec\u0000eipt\u0007.pdf', PDF, 200)).toBe('receipt.pdf');
    expect(attachmentName('a"b<c>.pdf', PDF, 200)).toBe('abc.pdf');
  });

  it('when the name is empty, dots only or missing, then it is "attachment" with the extension', () => {
    expect(attachmentName(undefined, JPEG, 200)).toBe('attachment.jpg');
    expect(attachmentName('..', JPEG, 200)).toBe('attachment.jpg');
    expect(attachmentName('', PDF, 200)).toBe('attachment.pdf');
  });

  it('when the extension fits the bytes in any case, then the name is kept as sent', () => {
    expect(attachmentName('Scan.JPEG', JPEG, 200)).toBe('Scan.JPEG');
    expect(attachmentName('发票 2026.pdf', PDF, 200)).toBe('发票 2026.pdf');
  });

  it('when the name is very long, then it is cut to the limit and still ends in the extension', () => {
    const long = attachmentName(`${'发'.repeat(5000)}.pdf`, PDF, 200);
    expect(Array.from(long)).toHaveLength(200);
    expect(long.endsWith('.pdf')).toBe(true);
    const noExtension = attachmentName('x'.repeat(5000), PDF, 200);
    expect(noExtension).toBe(`${'x'.repeat(196)}.pdf`);
  });

  it('when a name is not ASCII, then its fallback replaces each such character and every quote', () => {
    expect(asciiFallback('发票 "a".pdf')).toBe('__ _a_.pdf');
  });
});

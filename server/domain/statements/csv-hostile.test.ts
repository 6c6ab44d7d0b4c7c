import { describe, expect, it } from 'vitest';
import { mapping, rows } from '../../../test/support/csv-fixtures.ts';
import { refusal, utf8 } from '../../../test/support/statement-fixtures.ts';
import { parseStatementFile } from './index.ts';

describe('hostile CSV', () => {
  it('when a line has a million columns, then it is refused by its length, before its fields are split', () => {
    expect(
      refusal(() =>
        parseStatementFile(utf8(`Date,Amount,Text\n${','.repeat(1_000_000)}\n`), {
          format: 'csv',
          csvMapping: mapping({}),
        }),
      ),
    ).toBe('line 2: longer than 65536 characters');
  });

  it('when a line has more than 200 fields, then it is refused naming the line', () => {
    expect(
      refusal(() => parseStatementFile(utf8(`Date,Amount,Text\n${'x,'.repeat(300)}\n`), { csvMapping: mapping({}) })),
    ).toBe('line 2: 301 fields (at most 200 are allowed)');
  });

  it('when the file is one gigantic line, then it is refused by its length', () => {
    const bytes = utf8(`Date,Amount,Text\n2024-01-01,1.00,${'a'.repeat(5_000_000)}`);
    expect(refusal(() => parseStatementFile(bytes))).toBe('line 2: longer than 65536 characters');
  });

  it('when a file has millions of blank lines, then they are passed over and its one row is read', () => {
    const result = parseStatementFile(utf8(`Date,Text,Amount\n2024-01-01,x,1.00\n${'\n'.repeat(2_000_000)}`), {
      csvMapping: mapping({}),
    });
    expect(rows(result)).toEqual([['2024-01-01', '1.00', 'credit']]);
  });
});

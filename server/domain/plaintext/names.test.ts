import { describe, expect, it } from 'vitest';
import { accountPaths, beancountSegment, ledgerSegment, nameCandidates, rawSegment, typeOfRoot } from './names.ts';
import type { BookAccount } from './types.ts';

function acct(id: string, name: string, type: BookAccount['type'], parentId: string | null = null): BookAccount {
  return { id, name, type, currency: 'USD', parentId, isActive: true };
}

describe('segments', () => {
  it('when a name has a colon, a semicolon, runs of spaces or control characters, then the ledger segment replaces them deterministically', () => {
    expect(ledgerSegment('Work: Travel')).toBe('Work- Travel');
    expect(ledgerSegment('a;b')).toBe('a,b');
    expect(ledgerSegment('two  spaces\tand\nnewline')).toBe('two spaces and newline');
    expect(ledgerSegment('Café au lait')).toBe('Café au lait');
  });

  it('when a name breaks beancount’s component rules, then it becomes a capitalised ASCII name of letters, digits and dashes', () => {
    expect(beancountSegment('food')).toBe('Food');
    expect(beancountSegment('Café & Bar')).toBe('Cafe-Bar');
    expect(beancountSegment('Work: Travel')).toBe('Work-Travel');
    expect(beancountSegment('401k plan')).toBe('401k-plan');
    expect(beancountSegment('Русский')).toBe('X');
    expect(beancountSegment('Checking')).toBe('Checking');
  });

  it('when a name starts with its parent’s path, then the segment is the rest (the import’s way of naming a taken leaf)', () => {
    expect(rawSegment('Food:Other', 'Expenses', ['Food'])).toBe('Other');
    expect(rawSegment('Expenses:Food:Other', 'Expenses', ['Food'])).toBe('Other');
    expect(rawSegment('Expenses:Other', 'Expenses', [])).toBe('Other');
    expect(rawSegment('Food:', 'Expenses', ['Food'])).toBe('Food:');
    expect(rawSegment('Foodie', 'Expenses', ['Food'])).toBe('Foodie');
  });

  it('when a root is one of the five or a name hledger gives them, in any case, then it gives the type; anything else is unknown', () => {
    expect(typeOfRoot('Assets')).toBe('ASSET');
    expect(typeOfRoot('expenses')).toBe('EXPENSE');
    expect(typeOfRoot('Revenues')).toBe('INCOME');
    expect(typeOfRoot('debts')).toBe('LIABILITY');
    expect(typeOfRoot('Capital')).toBeUndefined();
    expect(typeOfRoot('Activa')).toBeUndefined();
  });
});

describe('account paths', () => {
  const accounts = [
    acct('1', 'Bank', 'ASSET'),
    acct('2', 'Checking: main', 'ASSET', '1'),
    acct('3', 'Food', 'EXPENSE'),
    acct('4', 'Food:Other', 'EXPENSE', '3'),
    acct('5', 'A:B', 'INCOME'),
    acct('6', 'A-B', 'INCOME'),
    acct('7', 'food stuff', 'EXPENSE'),
  ];

  it('when paths are built, then each is root, ancestors and segment, and a transliterated one is marked inexact', () => {
    const paths = accountPaths(accounts, 'hledger');
    expect(paths.get('2')).toEqual({
      path: 'Assets:Bank:Checking- main',
      raw: ['Bank', 'Checking: main'],
      exact: false,
    });
    expect(paths.get('4')).toEqual({ path: 'Expenses:Food:Other', raw: ['Food', 'Other'], exact: true });
  });

  it('when two names transliterate to one path, then the readable one keeps it and the other is numbered, never merged', () => {
    const paths = accountPaths(accounts, 'ledger');
    expect(paths.get('6')!.path).toBe('Income:A-B');
    expect(paths.get('5')!).toMatchObject({ path: 'Income:A-B-2', exact: false });
    const beancount = accountPaths(accounts, 'beancount');
    expect(beancount.get('7')).toMatchObject({ path: 'Expenses:Food-stuff', exact: false });
    expect(new Set([...beancount.values()].map((p) => p.path)).size).toBe(accounts.length);
  });

  it('when the same accounts are given in another order, then the paths are the same (deterministic)', () => {
    const a = accountPaths(accounts, 'beancount');
    const b = accountPaths([...accounts].reverse(), 'beancount');
    expect([...b].sort()).toEqual([...a].sort());
  });

  it('when a leaf name is taken, then the candidates are the path without the root, then with it, then numbered', () => {
    const names = [...nameCandidates('Other', 'Expenses', ['Food'])].slice(0, 4);
    expect(names).toEqual(['Other', 'Food:Other', 'Expenses:Food:Other', 'Expenses:Food:Other (2)']);
    expect([...nameCandidates('Cash', 'Assets', [])].slice(0, 2)).toEqual(['Cash', 'Assets:Cash']);
  });
});

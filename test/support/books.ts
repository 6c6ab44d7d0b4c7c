import type { Api } from './server.ts';

/**
 * A test's books written as a ledger, in hledger's journal syntax, put in through the API:
 *
 * ```
 * account Checking          ; type: ASSET
 * account Groceries         ; type: EXPENSE, parent: Food
 * account Yen wallet        ; type: ASSET, currency: JPY
 *
 * 2026-01-05 * Pay
 *     Checking      3000.00
 *     Salary
 *
 * 2026-01-15 * Duplicate    ; void: twice
 *     Food             9.99
 *     Checking
 *
 * 2026-01-25 ! Not yet
 *     Food             5.00
 *     Checking
 * ```
 *
 * `account` lines create accounts in order (tags `type`, `currency`, `parent`). A transaction's
 * status is `*` (posted) or `!` (a draft); a positive amount is a debit, a negative one a credit;
 * an amount may name its currency (`1200 JPY`, else the account's is used) and its total cost
 * (`100.00 EUR @@ 108.50 USD`), and one posting may leave it out (the balancing amount, like
 * hledger, counting a cost where one is given). A `void:` tag voids the entry with that reason.
 * `P 2026-01-01 EUR 1.1 USD` enters a rate.
 * Lines starting with `;` are comments. Answers each account's and each entry's id by name and memo,
 * added to `books` when given (more of the same books, written later in a test).
 */
export async function writeBooks(
  api: Api,
  token: string,
  journal: string,
  books: Books = { accounts: {}, entries: {} },
): Promise<Books> {
  for (const block of parse(journal)) {
    if (block.kind === 'price') {
      const res = await api.post(
        '/api/prices',
        { date: block.date, from: block.from, to: block.to, rate: block.rate },
        token,
      );
      if (res.status !== 201) throw new Error(`line ${block.line}: price: ${res.status} ${res.text}`);
      continue;
    }
    if (block.kind === 'account') {
      const { type, currency, parent } = block.tags;
      const body: Record<string, unknown> = { name: block.name, type };
      if (currency) body.currency = currency;
      if (parent) body.parent_id = required(books.accounts, parent, block.line);
      const res = await api.post('/api/accounts', body, token);
      if (res.status !== 201) throw new Error(`line ${block.line}: account ${block.name}: ${res.status} ${res.text}`);
      books.accounts[block.name] = res.body.id;
      continue;
    }
    const res = await api.post(
      '/api/journal-entries',
      {
        entry_date: block.date,
        memo: block.memo,
        auto_post: block.posted,
        lines: balanced(block).map((p) => ({
          account_id: required(books.accounts, p.account, p.line),
          direction: p.amount.startsWith('-') ? 'CREDIT' : 'DEBIT',
          amount: p.amount.replace(/^-/, ''),
          ...(p.currency ? { currency: p.currency } : {}),
          ...(p.cost ? { cost: p.cost } : {}),
        })),
      },
      token,
    );
    if (res.status !== 201) throw new Error(`line ${block.line}: ${block.memo}: ${res.status} ${res.text}`);
    books.entries[block.memo] = res.body.id;
    if (block.voidReason !== undefined) {
      const voided = await api.post(`/api/journal-entries/${res.body.id}/void`, { reason: block.voidReason }, token);
      if (voided.status !== 200)
        throw new Error(`line ${block.line}: void ${block.memo}: ${voided.status} ${voided.text}`);
    }
  }
  return books;
}

export interface Books {
  accounts: Record<string, string>;
  entries: Record<string, string>;
}

interface Posting<Amount = string | undefined> {
  account: string;
  amount: Amount;
  currency: string | undefined;
  cost: { amount: string; currency: string } | undefined;
  line: number;
}

type Block =
  | { kind: 'price'; date: string; from: string; rate: string; to: string; line: number }
  | { kind: 'account'; name: string; tags: Record<string, string>; line: number }
  | {
      kind: 'entry';
      date: string;
      posted: boolean;
      memo: string;
      voidReason: string | undefined;
      postings: Posting[];
      line: number;
    };

function parse(journal: string): Block[] {
  const blocks: Block[] = [];
  const lines = journal.split('\n');
  for (let i = 0; i < lines.length; i += 1) {
    const raw = lines[i]!;
    const line = i + 1;
    if (raw.trim() === '' || raw.trim().startsWith(';')) continue;
    const [text, comment = ''] = splitComment(raw);
    if (/^\s/.test(raw)) {
      const last = blocks.at(-1);
      if (last?.kind !== 'entry') throw new Error(`line ${line}: a posting outside a transaction`);
      const [account, amountText = ''] = text.trim().split(/\s{2,}/);
      const [money, costText] = amountText.split('@@').map((part) => part.trim().split(/\s+/).filter(Boolean));
      const cost = costText && { amount: costText[0]!, currency: costText[1]! };
      last.postings.push({ account: account!, amount: money?.[0], currency: money?.[1], cost, line });
      continue;
    }
    const price = /^P\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)\s*$/.exec(text);
    if (price) {
      blocks.push({ kind: 'price', date: price[1]!, from: price[2]!, rate: price[3]!, to: price[4]!, line });
      continue;
    }
    const tags = readTags(comment);
    const account = /^account\s+(.+?)\s*$/.exec(text);
    if (account) {
      blocks.push({ kind: 'account', name: account[1]!, tags, line });
      continue;
    }
    const entry = /^(\d{4}-\d{2}-\d{2})\s+([*!])\s+(.+?)\s*$/.exec(text);
    if (!entry) throw new Error(`line ${line}: neither an account nor a transaction: ${raw}`);
    blocks.push({
      kind: 'entry',
      date: entry[1]!,
      posted: entry[2] === '*',
      memo: entry[3]!,
      voidReason: tags.void,
      postings: [],
      line,
    });
  }
  return blocks;
}

function splitComment(raw: string): [string, string?] {
  const at = raw.indexOf(';');
  return at < 0 ? [raw] : [raw.slice(0, at), raw.slice(at + 1)];
}

function readTags(comment: string): Record<string, string> {
  const tags: Record<string, string> = {};
  for (const part of comment.split(',')) {
    const at = part.indexOf(':');
    if (at > 0) tags[part.slice(0, at).trim()] = part.slice(at + 1).trim();
  }
  return tags;
}

/** The postings with the one left without an amount given the balancing amount (exact decimals). */
function balanced(entry: Extract<Block, { kind: 'entry' }>): Posting<string>[] {
  const open = entry.postings.filter((p) => p.amount === undefined);
  if (open.length > 1) throw new Error(`line ${entry.line}: more than one posting without an amount`);
  const weights = entry.postings.map((p) => (p.cost && p.amount ? signed(p.cost.amount, p.amount) : p.amount));
  const scale = Math.max(0, ...weights.map((w) => w?.split('.')[1]?.length ?? 0));
  const sum = weights.reduce((total, w) => (w ? total + scaled(w, scale) : total), 0n);
  return entry.postings.map((p) => ({ ...p, amount: p.amount ?? unscaled(-sum, scale) }));
}

/** A total cost carries the sign of its amount. */
function signed(cost: string, amount: string): string {
  return amount.startsWith('-') ? `-${cost}` : cost;
}

function scaled(amount: string, scale: number): bigint {
  const [whole, fraction = ''] = amount.replace(/^-/, '').split('.');
  const value = BigInt(whole! + fraction.padEnd(scale, '0'));
  return amount.startsWith('-') ? -value : value;
}

function unscaled(value: bigint, scale: number): string {
  const digits = (value < 0n ? -value : value).toString().padStart(scale + 1, '0');
  const text = scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
  return value < 0n ? `-${text}` : text;
}

function required(ids: Record<string, string>, name: string, line: number): string {
  const id = ids[name];
  if (!id) throw new Error(`line ${line}: no account ${name} declared above`);
  return id;
}

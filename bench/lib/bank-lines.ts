/**
 * Bank lines for the suggestion benchmark (bench/suggestions.ts): a household's eighteen months of
 * card purchases, bills, pay, transfers and cash as twelve banks print them, each line with the
 * account its owner books it to. Written apart from the app's classifier and never read by it:
 * nothing under server/ imports this file, and the classifier learns only from what a user books.
 * The regions' chains, cities and names are data (bank-regions.json); each bank's way of printing
 * a line is in development-banks.ts or held-out-banks.ts.
 *
 * Split. Banks and merchants are each either `development` (the figures looked at while the
 * classifier was written) or `held-out` (the published figures). A held-out user banks with a
 * held-out bank's format and shops at held-out merchants only: the chains of their region that
 * the split gives to held-out, and one-off shops whose proper names come from the held-out half of
 * the name lists. Words that say what a shop sells (CAFE, PHARMACY, 超市) are a language's own and
 * appear on both sides, as they do in life; the classifier has to learn them from the user's own
 * bookings either way.
 */
import { Random } from './random.ts';
import { SYLLABLES, type Category, type Split } from './bank-regions.ts';
import { digits, pad, type Bank, type Kind, type Line } from './bank-printing.ts';
import { DEVELOPMENT_BANKS } from './development-banks.ts';
import { HELD_OUT_BANKS } from './held-out-banks.ts';

export { CHART, type Split } from './bank-regions.ts';

export interface BankLine {
  date: string;
  description: string;
  /** decimal string */
  amount: string;
  type: 'debit' | 'credit';
  /** the CHART key the owner books it to */
  account: Category;
  /** who was paid or paid: the same merchant on every line, whatever the bank printed */
  merchant: string;
}

export interface UserBooks {
  id: string;
  split: Split;
  bank: string;
  language: 'en' | 'zh';
  currency: string;
  /** the account the statements are of: checking, or the card for a card issuer's user */
  statementAccount: 'checking' | 'card';
  months: { month: string; lines: BankLine[] }[];
}

/** The twelve banks: the first six are development, the last six held out. */
const BANKS: readonly Bank[] = [...DEVELOPMENT_BANKS, ...HELD_OUT_BANKS];

// ---------------------------------------------------------------------------------------------
// A household's eighteen months.
// ---------------------------------------------------------------------------------------------

function madeUpName(r: Random, script: 'latin' | 'han', upper: boolean): string {
  const parts = Array.from({ length: r.int(2, 3) }, () => r.pick(SYLLABLES[script]));
  const word = parts.join('');
  if (script === 'han') return word;
  return upper ? word.toUpperCase() : word[0]!.toUpperCase() + word.slice(1);
}

/** FNV-1a: which side of the split a name falls on, the same on every machine. */
function hash(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return h >>> 0;
}
const sideOf = (name: string): Split => (hash(name) % 2 === 0 ? 'development' : 'held-out');

export const MONTHS = 18;

function monthAt(i: number): string {
  const y = 2023 + Math.floor(i / 12);
  return `${y}-${pad((i % 12) + 1)}`;
}
const daysIn = (month: string) =>
  new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5, 7)), 0)).getUTCDate();
const cents = (major: number) => Math.max(1, Math.round(major * 100));
const money = (c: number) => `${Math.floor(c / 100)}.${pad(c % 100)}`;

/** The household of one bank's user: its regular shops, bills, pay, and the one-off shops of each month. */
function household(bank: Bank, seed: string): UserBooks {
  const r = new Random(`${seed}:${bank.id}`);
  const region = bank.region;
  const side = bank.split;
  const isCard = bank.statementAccount === 'card';
  const [homeCity, homeRegion] = r.pick(region.cities);
  const card = digits(r, 4);
  const chains = region.chains.filter((c) => sideOf(c[0][0]!) === side);
  const regulars = chains.filter(() => r.chance(0.75));
  const names = region.names.filter((n) => sideOf(n) === side);
  const bills = region.bills.filter(([, category]) => category !== 'rent' || !isCard);
  const employer = r.pick(region.employers);
  const salary = r.logNormal(region.currency === 'CNY' ? 18000 : 3200, 0.2);
  const usedShopNames = new Set<string>();
  const script = region.currency === 'CNY' ? 'han' : 'latin';
  const upper = names[0] === names[0]!.toUpperCase();
  const oneOffCategories: [Category, number][] = [
    ['dining', 35],
    ['shopping', 18],
    ['coffee', 8],
    ['groceries', 8],
    ['household', 8],
    ['health', 6],
    ['entertainment', 7],
    ['travel', 5],
    ['transport', 3],
    ['fuel', 2],
  ];
  const oneOffTotal = oneOffCategories.reduce((s, [, w]) => s + w, 0);
  const pickOneOffCategory = (): Category => {
    let x = r.float() * oneOffTotal;
    for (const [c, w] of oneOffCategories) if ((x -= w) < 0) return c;
    return 'dining';
  };
  const medians: Partial<Record<Category, number>> = {
    dining: 24,
    shopping: 45,
    coffee: 6,
    groceries: 30,
    household: 40,
    health: 25,
    entertainment: 30,
    travel: 160,
    transport: 15,
    fuel: 45,
  };
  const scale = region.currency === 'CNY' ? 6 : 1;
  const months: UserBooks['months'] = [];
  for (let i = 0; i < MONTHS; i++) {
    const month = monthAt(i);
    const days = daysIn(month);
    const day = (d: number) => `${month}-${pad(Math.min(days, Math.max(1, d)))}`;
    const lines: (BankLine & { order: number })[] = [];
    const add = (
      kind: Kind,
      merchant: string,
      printed: string,
      account: Category,
      major: number,
      date: string,
      city = homeCity,
      where = homeRegion,
    ) => {
      const line: Line = {
        kind,
        name: printed,
        city,
        region: where,
        date,
        minute: r.int(7 * 60, 22 * 60),
        cents: cents(major),
      };
      const credit =
        kind === 'salary' || kind === 'interest' || kind === 'refund' || (isCard && kind === 'cardPayment');
      lines.push({
        date,
        description: bank.print(line, r, card).replace(/\s+$/u, r.chance(0.5) ? ' ' : ''),
        amount: money(line.cents),
        type: credit ? 'credit' : 'debit',
        account,
        merchant,
        order: lines.length,
      });
    };
    // pay, bills, savings, the card, cash, interest and fees
    if (!isCard) {
      add('salary', employer, employer, 'salary', salary, day(25));
      if (r.chance(0.3)) add('salary', employer, employer, 'salary', salary * 0.4, day(r.int(8, 15)));
      add('savings', 'savings', '', 'savings', r.pick([200, 250, 300, 500]) * scale, day(r.int(1, 5)));
      add('cardPayment', 'card payment', '', 'card', r.logNormal(600, 0.4) * scale, day(r.int(15, 20)));
      for (let k = r.int(0, 2); k > 0; k--)
        add('atm', 'atm', '', 'cash', r.pick([40, 60, 100, 200]) * scale, day(r.int(1, days)));
      if (r.chance(0.8)) add('interest', 'interest', '', 'interest', r.logNormal(1.5, 0.8), day(days));
    } else {
      add('cardPayment', 'card payment', '', 'checking', r.logNormal(900, 0.4), day(r.int(20, 26)));
      if (r.chance(0.3)) add('interest', 'rewards', '', 'interest', r.logNormal(12, 0.4), day(r.int(1, 10)));
    }
    if (r.chance(0.25)) add('fee', 'fee', '', 'fees', r.pick([2.5, 3, 5, 12, 15]) * scale, day(r.int(1, days)));
    for (const [printed, category, median] of bills) {
      if (category === 'utilities' && r.chance(0.15)) continue;
      const wobble = category === 'utilities' ? 0.25 : 0.01;
      add('bill', printed, printed, category, r.logNormal(median, wobble), day((hash(printed) % 27) + 1));
    }
    // the regular shops, each as often as people go there
    for (const [printedNames, category, median, perMonth, other] of regulars) {
      const visits = Math.floor(perMonth * (0.5 + r.float()) + r.float());
      for (let k = 0; k < visits; k++) {
        const account: Category = other && r.chance(other[1]) ? other[0] : category;
        const far = r.chance(0.15) ? r.pick(region.cities) : [homeCity, homeRegion];
        const printed = r.chance(0.8) ? printedNames[0]! : r.pick(printedNames);
        add('card', printedNames[0]!, printed, account, r.logNormal(median, 0.45), day(r.int(1, days)), far[0], far[1]);
        if (r.chance(0.02))
          add('refund', printedNames[0]!, printed, account, r.logNormal(median, 0.4), day(r.int(1, days)));
      }
    }
    // shops never seen before: a trip, a new place, a one-off
    for (let k = r.int(6, 12); k > 0; k--) {
      const category = pickOneOffCategory();
      const words = region.shopWords[category] ?? [];
      let printed = '';
      for (let tries = 0; tries < 20 && (printed === '' || usedShopNames.has(printed)); tries++) {
        const word = words.length > 0 && r.chance(0.55) ? r.pick(words) : undefined;
        const name = r.chance(0.3) ? r.pick(names) : madeUpName(r, script, upper);
        const second = word === undefined && r.chance(0.5) ? ` ${madeUpName(r, script, upper)}` : '';
        printed = region.shopName(`${name}${second}`, word, r);
      }
      usedShopNames.add(printed);
      const far = r.chance(0.4) ? r.pick(region.cities) : [homeCity, homeRegion];
      add(
        'card',
        printed,
        printed,
        category,
        r.logNormal((medians[category] ?? 30) * scale, 0.5),
        day(r.int(1, days)),
        far[0],
        far[1],
      );
    }
    lines.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : a.order - b.order));
    months.push({ month, lines: lines.map(({ order: _, ...line }) => line) });
  }
  return {
    id: bank.id,
    split: bank.split,
    bank: bank.id,
    language: bank.language,
    currency: region.currency,
    statementAccount: bank.statementAccount,
    months,
  };
}

/** Every bank's household, development banks first. */
export function households(seed = 'suggestions-1'): UserBooks[] {
  return BANKS.map((bank) => household(bank, seed));
}

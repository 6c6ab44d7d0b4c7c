import type { AccountKey } from './plan.ts';
import type { Random } from './random.ts';
import { CLIENTS, EUROPE, JAPAN, minorOf, purchase } from './spending.ts';

export interface Line {
  account: AccountKey;
  /** positive, in minor units of the account's currency */
  minor: number;
  debit: boolean;
}

export interface Entry {
  date: string;
  memo: string;
  lines: Line[];
}

function debit(account: AccountKey, minor: number): Line {
  return { account, minor, debit: true };
}
function credit(account: AccountKey, minor: number): Line {
  return { account, minor, debit: false };
}

type Template = (random: Random, date: string) => Entry;

/** Random day-to-day entries, by weight; together about 2.5 lines per entry. */
export const RANDOM_TEMPLATES: readonly (readonly [Template, number])[] = [
  // a card purchase
  [
    (r, date) => {
      const p = purchase(r);
      const card: AccountKey = r.chance(0.7) ? 'visa' : 'amex';
      return { date, memo: p.payee, lines: [debit(p.category.account, p.minor), credit(card, p.minor)] };
    },
    26,
  ],
  // a debit-card purchase from checking
  [
    (r, date) => {
      const p = purchase(r);
      return { date, memo: p.payee, lines: [debit(p.category.account, p.minor), credit('checking', p.minor)] };
    },
    22,
  ],
  // a split purchase: groceries and household goods, or dinner and coffee
  [
    (r, date) => {
      const groceries = r.chance(0.6);
      const a = minorOf(r, groceries ? 55 : 30, 0.5, 2);
      const b = minorOf(r, groceries ? 18 : 5, 0.5, 2);
      const payee = groceries
        ? r.pick(['Target', 'Costco Wholesale', 'Walmart', 'Whole Foods Market'])
        : r.pick(['The Local Bistro', 'Panera Bread', 'Café Roma']);
      const from: AccountKey = r.chance(0.5) ? 'checking' : 'visa';
      return {
        date,
        memo: payee,
        lines: [
          debit(groceries ? 'groceries' : 'dining', a),
          debit(groceries ? 'household' : 'coffee', b),
          credit(from, a + b),
        ],
      };
    },
    22,
  ],
  // a work trip purchase, partly on the employer: the card, one's own share and the claim
  [
    (r, date) => {
      const p = purchase(r);
      const own = Math.max(1, Math.round(p.minor * 0.3));
      return {
        date,
        memo: p.payee,
        lines: [
          debit(p.category.account, own),
          debit('reimbursements', p.minor - own + 1),
          credit('amex', p.minor + 1),
        ],
      };
    },
    5,
  ],
  // groceries, household goods and cash back, from checking
  [
    (r, date) => {
      const a = minorOf(r, 70, 0.5, 2);
      const b = minorOf(r, 20, 0.5, 2);
      const cash = r.pick([2000, 4000, 6000]);
      return {
        date,
        memo: r.pick(['Safeway', 'Kroger', 'Publix']) + ' with cash back',
        lines: [debit('groceries', a), debit('household', b), debit('wallet', cash), credit('checking', a + b + cash)],
      };
    },
    7,
  ],
  // paying cash
  [
    (r, date) => {
      const p = purchase(r);
      const minor = Math.min(p.minor, 8000);
      return { date, memo: p.payee, lines: [debit(p.category.account, minor), credit('wallet', minor)] };
    },
    5,
  ],
  [
    (r, date) => ({
      date,
      memo: 'ATM withdrawal',
      lines: [debit('wallet', r.pick([4000, 6000, 10000, 20000])), credit('checking', 0)],
    }),
    2,
  ],
  [
    (r, date) => ({
      date,
      memo: 'Transfer to savings',
      lines: [debit('savings', r.pick([10000, 25000, 50000, 100000])), credit('checking', 0)],
    }),
    2,
  ],
  [
    (r, date) => ({
      date,
      memo: 'Parking and lunch on the client visit',
      lines: [debit('reimbursements', minorOf(r, 40, 0.5, 2)), credit('amex', 0)],
    }),
    1,
  ],
  [
    (r, date) => ({
      date,
      memo: 'Expense report reimbursed',
      lines: [debit('checking', minorOf(r, 120, 0.6, 2)), credit('reimbursements', 0)],
    }),
    1,
  ],
  [
    (r, date) => ({
      date,
      memo: r.pick(['Interest paid', 'Savings interest']),
      lines: [debit('savings', minorOf(r, 12, 0.5, 2)), credit('interest', 0)],
    }),
    1,
  ],
  [
    (r, date) => ({
      date,
      memo: 'Dividend ' + r.pick(['VTI', 'VXUS', 'BND', 'AAPL']),
      lines: [debit('brokerage', minorOf(r, 60, 0.8, 2)), credit('dividends', 0)],
    }),
    1,
  ],
  [
    (r, date) => ({
      date,
      memo: 'Refund ' + r.pick(['Amazon', 'Target', 'REI', 'Best Buy']),
      lines: [debit('checking', minorOf(r, 35, 0.7, 2)), credit('refunds', 0)],
    }),
    1,
  ],
  [
    (r, date) => ({
      date,
      memo: r.pick(['Birthday gift', 'Gift from parents']),
      lines: [debit('checking', minorOf(r, 80, 0.6, 2)), credit('giftsReceived', 0)],
    }),
    0.3,
  ],
  [
    (r, date) => ({
      date,
      memo: r.pick(['Monthly service fee', 'Foreign transaction fee', 'Wire fee']),
      lines: [debit('bankFees', minorOf(r, 8, 0.4, 2)), credit('checking', 0)],
    }),
    1,
  ],
  // abroad: euros from the euro account, yen in cash
  [
    (r, date) => {
      const minor = minorOf(r, 28, 0.7, 2);
      return { date, memo: r.pick(EUROPE), lines: [debit('travelEurope', minor), credit('eurChecking', minor)] };
    },
    5,
  ],
  [
    (r, date) => ({
      date,
      memo: 'Invoice ' + r.pick(CLIENTS),
      lines: [debit('eurChecking', minorOf(r, 900, 0.5, 2)), credit('freelanceEur', 0)],
    }),
    1,
  ],
  [
    (r, date) => {
      const minor = minorOf(r, 1400, 0.8, 0);
      return { date, memo: r.pick(JAPAN), lines: [debit('travelJapan', minor), credit('yenWallet', minor)] };
    },
    3,
  ],
  // buying yen with dollars: balanced in each currency through the conversion accounts (4 lines)
  [
    (r, date) => {
      const yen = r.pick([10000, 20000, 30000, 50000]);
      const usd = Math.round((yen / r.int(105, 155)) * 100);
      return {
        date,
        memo: 'Currency exchange USD to JPY',
        lines: [
          debit('yenWallet', yen),
          credit('conversionJpy', yen),
          debit('conversionUsd', usd),
          credit('checking', usd),
        ],
      };
    },
    1,
  ],
];

/** Balances the two-line templates that leave the counter amount at 0: the credit takes the debit's amount. */
export function settle(entry: Entry): Entry {
  if (entry.lines.length === 2 && entry.lines[1]!.minor === 0) entry.lines[1]!.minor = entry.lines[0]!.minor;
  return entry;
}

/** A bill paid from checking. */
function fromChecking(date: string, memo: string, account: AccountKey, minor: number): Entry {
  return { date, memo, lines: [debit(account, minor), credit('checking', minor)] };
}

/** What falls due on a day of the month, in order; each counts as one of the day's entries. */
export function scheduled(random: Random, date: string): Entry[] {
  const day = Number(date.slice(8, 10));
  const out: Entry[] = [];
  if (day === 1) {
    out.push(fromChecking(date, 'Rent ' + date.slice(0, 7), 'rent', 215000));
    const interest = random.int(60000, 90000);
    out.push({
      date,
      memo: 'Mortgage payment',
      lines: [debit('mortgage', 150000 - interest), debit('loanInterest', interest), credit('checking', 150000)],
    });
  }
  if (day === 1 || day === 15) {
    const gross = 412500;
    const tax = random.int(90000, 98000);
    const insurance = 21350;
    out.push({
      date,
      memo: 'Payroll ACME Corp',
      lines: [
        debit('checking', gross - tax - insurance),
        debit('incomeTax', tax),
        debit('healthInsurance', insurance),
        credit('salary', gross),
      ],
    });
  }
  if (day === 5) {
    out.push(fromChecking(date, 'City Power & Light', 'electricity', minorOf(random, 95, 0.3, 2)));
    out.push(fromChecking(date, 'Comcast Xfinity', 'internet', 7999));
  }
  if (day === 10) {
    out.push(fromChecking(date, 'Municipal Water', 'water', minorOf(random, 45, 0.3, 2)));
    out.push(fromChecking(date, 'Geico auto insurance', 'carInsurance', 11240));
    out.push(fromChecking(date, 'Car loan payment', 'carLoan', 38500));
  }
  if (day === 20) {
    out.push(fromChecking(date, 'Visa card payment', 'visa', minorOf(random, 1800, 0.3, 2)));
    out.push(fromChecking(date, 'Amex card payment', 'amex', minorOf(random, 700, 0.3, 2)));
  }
  if (date.slice(5) === '12-15')
    out.push({ date, memo: 'Year-end bonus ACME Corp', lines: [debit('checking', 500000), credit('bonus', 0)] });
  if (date.slice(5) === '04-15' || date.slice(5) === '10-15')
    out.push(fromChecking(date, 'County property tax', 'propertyTax', 240000));
  return out.map(settle);
}

/** The first day's opening balances, one entry per currency. */
export function openingEntries(date: string): Entry[] {
  return [
    {
      date,
      memo: 'Opening balances',
      lines: [
        debit('checking', 850000),
        debit('savings', 2500000),
        debit('brokerage', 1200000),
        debit('wallet', 20000),
        credit('mortgage', 32000000),
        credit('carLoan', 1800000),
        debit('opening', 32000000 + 1800000 - 850000 - 2500000 - 1200000 - 20000),
      ],
    },
    { date, memo: 'Opening balances EUR', lines: [debit('eurChecking', 420000), credit('openingEur', 420000)] },
    { date, memo: 'Opening balances JPY', lines: [debit('yenWallet', 50000), credit('openingJpy', 50000)] },
  ];
}

/** How a bank prints a shop's name: upper case, clipped, with card and store noise. */
export function bankDescription(random: Random, memo: string): string {
  const name = memo
    .toUpperCase()
    .replace(/[’']/g, '')
    .replace(/[^A-Z0-9&]+/g, ' ')
    .trim();
  switch (random.int(0, 4)) {
    case 0:
      return `POS PURCHASE ${name.slice(0, 22)} ${random.int(100, 9999)}`;
    case 1:
      return `CHECKCARD ${String(random.int(101, 1231)).padStart(4, '0')} ${name.slice(0, 18)}`;
    case 2:
      return `${name} #${random.int(10, 999)}`;
    case 3:
      return name;
    default:
      return `ACH ${name.slice(0, 25)} PPD`;
  }
}

export const NOISE_DESCRIPTIONS = [
  'ZELLE TO J SMITH',
  'VENMO PAYMENT',
  'ATM WITHDRAWAL 0042 MAIN ST',
  'CHECK 1042',
  'OVERDRAFT PROTECTION XFER',
  'PAYPAL INST XFER',
  'SQ *FARMERS MARKET',
  'DEPOSIT MOBILE',
];

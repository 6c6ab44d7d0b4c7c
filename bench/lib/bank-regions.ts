/**
 * The regions the suggestion benchmark's households live in (bench/lib/bank-lines.ts): chains as
 * banks print them, cities, bills, employers, and the words of one-off shops. The data is
 * bank-regions.json; this module types it and adds how each region puts a shop's name together.
 */
import fs from 'node:fs';
import type { Random } from './random.ts';

export type Split = 'development' | 'held-out';

export type AccountKind = 'ASSET' | 'LIABILITY' | 'INCOME' | 'EXPENSE' | 'EQUITY';

/** The chart every user keeps (names in the user's language); `key` is the truth a line is booked to. */
export const CHART: readonly { key: string; type: AccountKind; en: string; zh: string }[] = [
  { key: 'checking', type: 'ASSET', en: 'Checking', zh: '活期账户' },
  { key: 'savings', type: 'ASSET', en: 'Savings', zh: '储蓄账户' },
  { key: 'cash', type: 'ASSET', en: 'Cash', zh: '现金' },
  { key: 'card', type: 'LIABILITY', en: 'Credit card', zh: '信用卡' },
  { key: 'opening', type: 'EQUITY', en: 'Opening balances', zh: '期初余额' },
  { key: 'salary', type: 'INCOME', en: 'Salary', zh: '工资' },
  { key: 'interest', type: 'INCOME', en: 'Interest', zh: '利息收入' },
  { key: 'groceries', type: 'EXPENSE', en: 'Groceries', zh: '食品杂货' },
  { key: 'dining', type: 'EXPENSE', en: 'Dining', zh: '餐饮' },
  { key: 'coffee', type: 'EXPENSE', en: 'Coffee', zh: '咖啡' },
  { key: 'fuel', type: 'EXPENSE', en: 'Fuel', zh: '加油' },
  { key: 'transport', type: 'EXPENSE', en: 'Transport', zh: '交通' },
  { key: 'shopping', type: 'EXPENSE', en: 'Shopping', zh: '购物' },
  { key: 'household', type: 'EXPENSE', en: 'Household', zh: '家居' },
  { key: 'health', type: 'EXPENSE', en: 'Health', zh: '医疗' },
  { key: 'entertainment', type: 'EXPENSE', en: 'Entertainment', zh: '娱乐' },
  { key: 'travel', type: 'EXPENSE', en: 'Travel', zh: '旅行' },
  { key: 'rent', type: 'EXPENSE', en: 'Rent', zh: '房租' },
  { key: 'utilities', type: 'EXPENSE', en: 'Utilities', zh: '水电燃气' },
  { key: 'phone', type: 'EXPENSE', en: 'Phone and internet', zh: '通讯' },
  { key: 'subscriptions', type: 'EXPENSE', en: 'Subscriptions', zh: '订阅' },
  { key: 'insurance', type: 'EXPENSE', en: 'Insurance', zh: '保险' },
  { key: 'fees', type: 'EXPENSE', en: 'Bank fees', zh: '银行手续费' },
];

export type Category = (typeof CHART)[number]['key'];

/** [printed names, category, median amount, visits a month when a regular, other category and its share] */
type Chain = readonly [readonly string[], Category, number, number, (readonly [Category, number])?];

export interface Region {
  currency: string;
  cities: readonly (readonly [string, string])[];
  chains: readonly Chain[];
  /** [printed name, category, median] of the bills: rent, power, phone, subscriptions, insurance */
  bills: readonly (readonly [string, Category, number])[];
  employers: readonly string[];
  bankName: string;
  /** proper names of one-off shops: people, places, made-up words */
  names: readonly string[];
  /** what a one-off shop's name says it sells, by category */
  shopWords: Partial<Record<Category, readonly string[]>>;
  /** how a one-off shop's name is put together from a proper name and a word */
  shopName: (name: string, word: string | undefined, r: Random) => string;
}

type RegionName = 'US' | 'UK' | 'NL' | 'AU' | 'DE' | 'FR' | 'CN';

interface RegionsFile {
  regions: Record<RegionName, Omit<Region, 'shopName'>>;
  /** syllables of made-up shop names, by script */
  syllables: Record<'latin' | 'han', readonly string[]>;
}

const file = JSON.parse(fs.readFileSync(new URL('./bank-regions.json', import.meta.url), 'utf8')) as RegionsFile;

/** How a one-off shop's name is put together in each region, from a proper name and what it sells. */
const SHOP_NAMES: Record<RegionName, Region['shopName']> = {
  US: (name, word, r) =>
    word === undefined ? name : r.chance(0.5) ? `${name} ${word}` : `${word.split(' ')[0]} ${name}`,
  UK: (name, word, r) => (word === undefined ? name : r.chance(0.7) ? `${name} ${word}` : `${word} ${name}`),
  NL: (name, word) => (word === undefined ? name : `${word} ${name}`),
  AU: (name, word) => (word === undefined ? name : `${name} ${word}`),
  DE: (name, word) => (word === undefined ? name : `${word} ${name}`),
  FR: (name, word) => (word === undefined ? name : `${word} ${name}`),
  CN: (name, word) => (word === undefined ? name : `${name}${word}`),
};

export const REGIONS = Object.fromEntries(
  (Object.keys(SHOP_NAMES) as RegionName[]).map((name) => [
    name,
    { ...file.regions[name], shopName: SHOP_NAMES[name] },
  ]),
) as Record<RegionName, Region>;

/** Made-up words from syllables: most one-off shops have a name no other shop has, as in life. */
export const SYLLABLES = file.syllables;

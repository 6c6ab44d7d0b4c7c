import type { AccountKey } from './plan.ts';
import type { Random } from './random.ts';

/** Spending categories: the account, the shops, and the median and spread of a purchase in major units. */
interface Category {
  account: AccountKey;
  payees: readonly string[];
  median: number;
  spread: number;
  weight: number;
}

/** Each category: its account, the median and spread of a purchase, its weight, and its shops (`|` between them). */
const SPENDING: readonly Category[] = (
  [
    [
      'groceries',
      62,
      0.6,
      20,
      "Whole Foods Market|Trader Joe's|Safeway|Kroger|Costco Wholesale|Aldi|Sprouts Farmers Market|Publix",
    ],
    [
      'dining',
      34,
      0.6,
      14,
      "Chipotle Mexican Grill|Olive Garden|Sushi Zen|Panera Bread|The Local Bistro|Five Guys|Pho Saigon|Domino's Pizza",
    ],
    ['coffee', 5.6, 0.4, 10, "Starbucks|Blue Bottle Coffee|Peet's Coffee|Dunkin'"],
    ['fuel', 46, 0.3, 6, 'Shell|Chevron|Exxon Mobil|BP'],
    ['transit', 14, 0.6, 6, 'Metro Transit|Uber|Lyft|Amtrak'],
    ['parking', 9, 0.5, 3, 'City Parking|ParkWhiz|SpotHero'],
    ['pharmacy', 18, 0.7, 3, 'CVS Pharmacy|Walgreens|Rite Aid'],
    ['doctor', 110, 0.6, 1, 'Family Health Clinic|Dental Associates|City Eye Care'],
    ['clothing', 58, 0.7, 3, 'Uniqlo|Gap|Nordstrom|H&M|REI'],
    ['electronics', 140, 0.9, 1, 'Best Buy|Apple Store|Newegg|B&H Photo'],
    ['household', 38, 0.7, 7, "Target|Home Depot|IKEA|Walmart|Lowe's"],
    ['streaming', 13, 0.2, 2, 'Netflix|Spotify|Hulu|Disney Plus'],
    ['movies', 24, 0.4, 2, 'AMC Theatres|Regal Cinemas|Alamo Drafthouse'],
    ['books', 19, 0.5, 2, "Amazon Books|Barnes & Noble|Powell's Books"],
    ['flights', 340, 0.5, 1, 'United Airlines|Delta Air Lines|Southwest Airlines|Alaska Airlines'],
    ['hotels', 175, 0.5, 1, 'Marriott|Hilton|Airbnb|Hyatt'],
    ['giftsGiven', 48, 0.7, 2, 'Etsy|Amazon|Macy’s'],
    ['education', 60, 1, 1, 'Coursera|Community College|Udemy'],
    ['maintenance', 90, 0.8, 1, 'Handy Plumbing|Ace Hardware|Green Lawn Care'],
  ] as const
).map(([account, median, spread, weight, payees]) => ({ account, median, spread, weight, payees: payees.split('|') }));

export const EUROPE = [
  'Carrefour Paris',
  'Deutsche Bahn',
  'Café de Flore',
  'Albert Heijn',
  'Trenitalia',
  'El Corte Inglés',
];
export const JAPAN = ['Lawson', 'FamilyMart', 'JR East', 'Ichiran Ramen', '7-Eleven Shinjuku', 'Yodobashi Camera'];
export const CLIENTS = ['Müller GmbH', 'Atelier Dupont', 'Van Dijk BV', 'Rossi Design'];

/** An amount drawn around `median` (major units), in minor units of `digits` decimals. */
export function minorOf(random: Random, median: number, spread: number, digits: number): number {
  const scale = 10 ** digits;
  return Math.max(1, Math.round(random.logNormal(median, spread) * scale));
}

const spendingPick = (random: Random, weights: readonly Category[]) => {
  const total = weights.reduce((s, c) => s + c.weight, 0);
  let x = random.float() * total;
  for (const c of weights) if ((x -= c.weight) < 0) return c;
  return weights.at(-1)!;
};

export function purchase(random: Random): { category: Category; payee: string; minor: number } {
  const category = spendingPick(random, SPENDING);
  return { category, payee: random.pick(category.payees), minor: minorOf(random, category.median, category.spread, 2) };
}

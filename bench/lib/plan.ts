/** The account plan of the generated books: one currency per account, as the ledger requires. */
export interface PlanAccount {
  name: string;
  currency: 'USD' | 'EUR' | 'JPY';
}

const USD = (name: string): PlanAccount => ({ name, currency: 'USD' });
const EUR = (name: string): PlanAccount => ({ name, currency: 'EUR' });
const JPY = (name: string): PlanAccount => ({ name, currency: 'JPY' });

/** Leaf accounts (54); their parents (`Assets:Bank`, `Expenses:Food`, …) make the hierarchy. Leaf names are unique. */
export const ACCOUNTS = {
  checking: USD('Assets:Bank:Checking'),
  savings: USD('Assets:Bank:Savings'),
  brokerage: USD('Assets:Bank:Brokerage Cash'),
  wallet: USD('Assets:Cash:Wallet'),
  reimbursements: USD('Assets:Receivables:Reimbursements'),
  eurChecking: EUR('Assets:Bank:EUR Checking'),
  yenWallet: JPY('Assets:Cash:Yen Wallet'),
  visa: USD('Liabilities:Credit Cards:Visa'),
  amex: USD('Liabilities:Credit Cards:Amex'),
  mortgage: USD('Liabilities:Loans:Mortgage'),
  carLoan: USD('Liabilities:Loans:Car Loan'),
  opening: USD('Equity:Opening Balances'),
  openingEur: EUR('Equity:Opening Balances EUR'),
  openingJpy: JPY('Equity:Opening Balances JPY'),
  conversionUsd: USD('Equity:Conversions:Conversion USD'),
  conversionJpy: JPY('Equity:Conversions:Conversion JPY'),
  salary: USD('Income:Salary'),
  bonus: USD('Income:Bonus'),
  interest: USD('Income:Interest'),
  dividends: USD('Income:Dividends'),
  refunds: USD('Income:Refunds'),
  giftsReceived: USD('Income:Gifts Received'),
  freelanceEur: EUR('Income:Freelance EUR'),
  groceries: USD('Expenses:Food:Groceries'),
  dining: USD('Expenses:Food:Dining'),
  coffee: USD('Expenses:Food:Coffee'),
  rent: USD('Expenses:Housing:Rent'),
  electricity: USD('Expenses:Housing:Utilities:Electricity'),
  water: USD('Expenses:Housing:Utilities:Water'),
  internet: USD('Expenses:Housing:Utilities:Internet'),
  maintenance: USD('Expenses:Housing:Maintenance'),
  fuel: USD('Expenses:Transport:Fuel'),
  transit: USD('Expenses:Transport:Transit'),
  parking: USD('Expenses:Transport:Parking'),
  carInsurance: USD('Expenses:Transport:Car Insurance'),
  pharmacy: USD('Expenses:Health:Pharmacy'),
  doctor: USD('Expenses:Health:Doctor'),
  healthInsurance: USD('Expenses:Health:Health Insurance'),
  incomeTax: USD('Expenses:Taxes:Income Tax'),
  propertyTax: USD('Expenses:Taxes:Property Tax'),
  clothing: USD('Expenses:Shopping:Clothing'),
  electronics: USD('Expenses:Shopping:Electronics'),
  household: USD('Expenses:Shopping:Household'),
  streaming: USD('Expenses:Entertainment:Streaming'),
  movies: USD('Expenses:Entertainment:Movies'),
  books: USD('Expenses:Entertainment:Books'),
  flights: USD('Expenses:Travel:Flights'),
  hotels: USD('Expenses:Travel:Hotels'),
  travelEurope: EUR('Expenses:Travel:Europe'),
  travelJapan: JPY('Expenses:Travel:Japan'),
  giftsGiven: USD('Expenses:Gifts Given'),
  education: USD('Expenses:Education'),
  bankFees: USD('Expenses:Fees:Bank Fees'),
  loanInterest: USD('Expenses:Fees:Loan Interest'),
} as const satisfies Record<string, PlanAccount>;

export type AccountKey = keyof typeof ACCOUNTS;

export const DIGITS: Record<PlanAccount['currency'], number> = { USD: 2, EUR: 2, JPY: 0 };

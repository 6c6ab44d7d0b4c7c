/** Currencies: the home currency, converted figures, exchanges in the entry editor. */
export const currency = {
  currency: {
    home: 'Home currency',
    homeHint: 'The dashboard, the reports and the advisor show figures in this currency.',
    homeSaved: 'Figures are now shown in {currency}.',
    confirmTitle: 'Your home currency',
    confirmHint:
      'Totals, reports and new accounts use it. It is chosen from your computer’s region: change it here if it is not yours (Settings has it too).',
    confirm: 'Use {currency}',
    switchLabel: 'Show figures',
    inHome: 'In {currency}',
    perCurrency: 'Per currency',
    missing: 'No rate from {from} to {to} on {date}: {from} is left out of these totals.',
    addRates: 'Enter rates',
    unrealized: 'Unrealised gains',
    cost: 'Cost',
    addCost: 'Exchange: what line {n} cost in another currency',
    costAmount: 'Cost of line {n}',
    costCurrency: 'Currency of the cost of line {n}',
    removeCost: 'Remove the cost of line {n}',
    rate: '1 {from} = {rate} {to}',
    automatic: 'automatic',
    automaticHint: 'Automatic lines on the currency trading accounts keep each currency balanced.',
    problem: {
      cost: 'The cost is not a valid amount in its currency',
      same: 'The cost must be in another currency than the line',
    },
  },
} as const;

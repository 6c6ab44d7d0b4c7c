/** The rates screen. */
export const prices = {
  prices: {
    title: 'Exchange rates',
    intro:
      'A rate says what one unit of a currency is worth in another on a day. Figures in one currency use the latest rate on or before their own date (or the inverse of the opposite pair).',
    latest: 'Latest rate per pair',
    pair: 'Pair',
    rate: 'Rate',
    date: 'Date',
    from: 'From',
    to: 'To',
    none: 'No rates yet: enter one or import a CSV file.',
    add: 'Enter a rate',
    save: 'Save rate',
    saved: 'Saved: 1 {from} = {rate} {to} on {date}.',
    import: 'Import rates',
    importHint:
      'A CSV file with a header row naming date, from, to and rate, then one rate per row. A declared security’s price is a row too: its symbol in from, its currency in to (2026-02-01,VTI,USD,250.00).',
    file: 'CSV file',
    importButton: 'Import',
    importing: 'Importing…',
    imported: '{created} rates added, {replaced} replaced.',
    importedSecurities: '{created} rates added, {replaced} replaced; {securities} of them securities’ prices.',
    all: 'All rates',
    delete: 'Delete the rate of {pair} on {date}',
    oneUnit: '1 {from} = {rate} {to}',
  },
} as const;

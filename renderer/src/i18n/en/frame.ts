/** The frame of the app and the pieces every screen shares: names, actions, errors, dates, pages, durations. */
export const frame = {
  app: {
    name: 'Personal Ledger',
    resuming: 'Opening your ledger…',
  },
  loading: 'Loading…',
  language: {
    label: 'Language',
  },
  nav: {
    label: 'Main',
    menu: 'Menu',
    dashboard: 'Dashboard',
    accounts: 'Accounts',
    journal: 'Journal',
    reports: 'Reports',
    statements: 'Statements',
    settings: 'Settings',
    budget: 'Budget',
    schedules: 'Schedules',
    prices: 'Rates',
    investments: 'Investments',
    history: 'History',
  },
  action: {
    cancel: 'Cancel',
    save: 'Save',
    delete: 'Delete',
    edit: 'Edit',
    back: 'Back',
    dismiss: 'Dismiss',
  },
  // What went wrong, said as what to do; the technical words stay behind "Details"
  error: {
    details: 'Details',
    detailsCode: 'Code: {code} (HTTP {status})',
    detailsServer: 'The ledger said: {detail}',
    detailsField: 'Field {field}: {reason}',
    unexpected:
      'Something went wrong in the app. Nothing was changed: try again, and if it happens again, the details below help find why.',
    refused: 'The ledger could not do this. The details below say why.',
    code: {
      INSUFFICIENT_UNITS: 'The account holds fewer units than that. The details below say how many it holds.',
      INVALID_LOT:
        'The lots chosen do not fit this sale: choose open lots of this account whose units add up to the units sold.',
      TOO_MANY_SECURITIES: 'The books hold as many securities as they can.',
      NETWORK: 'The ledger cannot be reached. Check that the app (or its server) is still running, then try again.',
      VALIDATION_ERROR: 'Some of what you entered cannot be used. Check the fields and try again.',
      VALIDATION_ERROR_REASON: 'Some of what you entered cannot be used: {reason}',
      UNBALANCED:
        'Debits and credits differ. Make them equal to post the entry, or save it as a draft and finish it later.',
      TOO_FEW_LINES: 'An entry needs at least two lines, each with an account and an amount.',
      INACTIVE_ACCOUNT: 'One of the accounts is deactivated. Reactivate it under Accounts, or choose another account.',
      INVALID_ACCOUNT: 'One of the accounts no longer exists. Choose another account.',
      CURRENCY_MISMATCH: 'An amount is in another currency than its account. Use the account’s own currency.',
      MISSING_RATE:
        'There is no exchange rate for that date. Enter one (under Rates, or where the amount is shown), or type the amount in the account’s currency.',
      INVALID_STATUS:
        'The entry cannot be changed that way now (it may have been posted or voided meanwhile). Reload it to see where it stands.',
      DUPLICATE_NAME: 'An account with this name already exists. Choose another name.',
      INVALID_TYPE: 'Choose one of the account types.',
      INVALID_PARENT:
        'That account cannot hold this one (it is of another type, or the tree would be too deep). Choose another parent.',
      HAS_ENTRIES:
        'This account is in use (entries, statements or schedules), so it cannot be deleted. Deactivate it instead.',
      HAS_CHILDREN: 'This account has sub-accounts. Move or delete them first.',
      NOT_FOUND: 'This is no longer there: it may have been deleted meanwhile. Reload the page.',
      EMAIL_TAKEN: 'A ledger with this email already exists. Sign in instead.',
      PAYLOAD_TOO_LARGE: 'The file is too large (at most 20 MB). Split it, or export a shorter period from your bank.',
      INVALID_STATEMENT_FILE:
        'This file cannot be read as a bank statement. Choose a CSV, OFX, QFX, QIF or camt.053 file exported by your bank.',
      INVALID_JOURNAL:
        'A line of the journal file cannot be imported, so nothing was imported. The details below name the line.',
      ALREADY_PROCESSED: 'This match was already accepted or rejected. The list now shows where things stand.',
      SUPERSEDED: 'A better match has replaced this one. The list now shows it.',
      VERSION_CONFLICT: 'This was changed elsewhere meanwhile. Reload and try again.',
      JOB_BUDGET_EXCEEDED:
        'This needed more time or memory than one task may take, so it was stopped and nothing was changed. Try a smaller file or a shorter period.',
      LEDGER_BUSY: 'Your ledger is busy with a long import or a restore. Try again in a moment.',
      STORAGE_FULL: 'The disk is full, so nothing was saved. Free some space and try again.',
      STORAGE_UNAVAILABLE:
        'The ledger’s data folder cannot be read or written just now, so nothing was saved. Check the disk and try again.',
      RATE_LIMITED: 'Too many attempts: try again in {wait}.',
    },
  },
  // Why the server refused a field, said beside it
  field: {
    required: 'This is needed.',
    blank: 'This must not be empty.',
    negative: 'This must not be negative.',
    amount: 'Write an amount as digits, e.g. 82.50.',
    balance: 'Write a balance as digits, e.g. -1250.00.',
    rate: 'Write a rate as digits, e.g. 1.085 (at most 12 decimals).',
    date: 'Write the date as YYYY-MM-DD, e.g. 2026-03-10.',
    month: 'Write the month as YYYY-MM, e.g. 2026-03.',
    currency: 'Use a three-letter ISO 4217 code, e.g. EUR.',
    unknownField: 'The ledger does not know this field.',
    zero: 'This must be more than zero.',
    tooLarge: 'This must be less than one trillion.',
    tooLong: 'At most {max} characters.',
    tooManyDecimals: 'Too many decimals for {currency}.',
  },
  // Names the server gives things itself, shown in the interface language
  names: {
    tradingAccount: 'Currency trading {currency}',
    import: '{format} import {date}',
    statement: 'Statement {date}',
  },
  limit: {
    count: '{count} of {max} characters',
    cut: 'The pasted text was too long: only the first {max} characters fit, {cut} were left out.',
  },
  date: {
    placeholder: 'YYYY-MM-DD',
    pick: 'Choose {label} on a calendar',
    invalid: 'Write the date as YYYY-MM-DD, e.g. 2026-03-10',
  },
  pager: {
    previous: 'Previous',
    next: 'Next',
    position: 'Page {page} of {pages} ({total} in all)',
    positionAtLeast: 'Page {page} of {pages}+ (at least {total} in all)',
  },
  picker: {
    placeholder: 'Search accounts…',
    none: 'No account has that name',
  },

  time: {
    second: '1 second',
    seconds: '{n} seconds',
    minute: '1 minute',
    minutes: '{n} minutes',
    hour: '1 hour',
    hours: '{n} hours',
  },
} as const;

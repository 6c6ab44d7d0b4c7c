/** An account's register. */
export const register = {
  register: {
    title: 'Register',
    allAccounts: '← All accounts',
    balanceToday: 'Balance today',
    dates: 'Dates of the register',
    allDates: 'All dates',
    keys: '↑ ↓ move between lines, Enter opens one beside the list, Page Up / Page Down turn pages, Escape closes.',
    tableLabel: 'Register of {name}',
    transfer: 'Transfer',
    cleared: 'Cleared',
    balance: 'Balance',
    pages: 'Register pages',
    empty: 'Nothing posted on this account yet',
    emptyHint: 'Entries show here once they are posted, newest first, with the balance after each.',
    noLinesInRange: 'Nothing posted on this account in these dates',
    noLinesInRangeHint: 'Change the dates, or show all dates.',
  },
} as const;

/**
 * The features of the server and which of them each may call: the boundaries' policies between
 * features (directions.ts) and the words server/jobs may not say (refusals.ts) are made from it.
 */

/**
 * Which features a feature may call (their services, queries and models, never their repositories);
 * never the other way round. A feature not listed calls no other feature.
 */
export const FEATURE_USES: Record<string, string[]> = {
  totals: [],
  prices: [],
  settings: [],
  accounts: ['prices', 'totals'],
  auth: [],
  backup: ['attachments'],
  rules: ['accounts'],
  statements: ['accounts', 'rules'],
  exchange: ['accounts'],
  journal: ['accounts', 'exchange', 'totals'],
  reports: ['accounts', 'exchange', 'investments', 'prices', 'totals'],
  register: ['accounts', 'totals'],
  reconciliation: ['accounts', 'journal', 'prices', 'rules', 'statements'],
  export: ['accounts', 'attachments', 'investments', 'journal', 'prices', 'totals'],
  'journal-import': ['accounts', 'exchange', 'export', 'journal', 'prices', 'totals'],
  schedules: ['accounts', 'journal'],
  budgets: ['accounts', 'totals', 'schedules'],
  investments: ['accounts', 'journal', 'prices'],
  attachments: ['journal', 'statements'],
  sync: ['accounts', 'journal', 'totals'],
  chat: ['accounts', 'budgets', 'investments', 'journal', 'reconciliation', 'reports', 'schedules', 'settings'],
};

/** Refuses to load when the features' uses form a circle, naming it. */
export function assertNoCircle(uses: Readonly<Record<string, readonly string[]>>): void {
  const state = new Map<string, 'open' | 'done'>();
  const visit = (name: string, path: string[]): void => {
    if (state.get(name) === 'done') return;
    if (state.get(name) === 'open')
      throw new Error(`eslint/features.ts: features call each other in a circle: ${[...path, name].join(' -> ')}`);
    state.set(name, 'open');
    for (const used of uses[name] ?? []) visit(used, [...path, name]);
    state.set(name, 'done');
  };
  for (const name of Object.keys(uses)) visit(name, []);
}
assertNoCircle(FEATURE_USES);

/** Words of the job worker's own that are also features' names: a job's time and memory budget, a heap's total. */
const JOB_VOCABULARY = new Set(['budget', 'total']);

/**
 * The features' names as words in code (`statements` -> statement, `journal-import` -> journal):
 * server/jobs runs the features' jobs without knowing any of them, so none is named there.
 */
export const FEATURE_WORDS = new RegExp(
  [...new Set(Object.keys(FEATURE_USES).map((name) => name.split('-')[0]!.replace(/s$/, '')))]
    .filter((word) => !JOB_VOCABULARY.has(word))
    .join('|'),
  'i',
);
export const FEATURE_NAMED =
  'server/jobs knows no feature: a job says its own words in its definition (<feature>.jobs.ts).';

/**
 * Writes the change log's triggers (migration 0017_change_log's form) for the datasets of
 * `server/db/change-log.ts`: on each table a dataset covers, and on each of its child tables,
 * AFTER INSERT, UPDATE and DELETE, a trigger that marks the dataset's row in `change_dirty` unless
 * it is marked already (a child marks its parent's row: the parent's value holds it). A migration
 * that adds a dataset writes its triggers with `node scripts/change-log-triggers.ts <dataset>…`;
 * test/change-log-triggers.test.ts holds every migrated ledger's triggers to what this writes.
 */
import { fileURLToPath } from 'node:url';
import { DATASETS, type Dataset } from '../server/db/change-log.ts';

const EVENTS = [
  ['insert', 'INSERT', 'NEW'],
  ['update', 'UPDATE', 'NEW'],
  ['delete', 'DELETE', 'OLD'],
] as const;

function trigger(table: string, event: (typeof EVENTS)[number], dataset: string, key: readonly string[]): string {
  const [name, on, row] = event;
  const id = key.map((k) => `${row}.${k}`).join(" || ' ' || ");
  return `CREATE TRIGGER ${table}_changed_${name} AFTER ${on} ON ${table}
BEGIN
  INSERT INTO change_dirty (dataset, row_id) SELECT '${dataset}', ${id}
    WHERE NOT EXISTS (SELECT 1 FROM change_dirty WHERE dataset = '${dataset}' AND row_id = ${id});
END;`;
}

/** Each trigger of a dataset, by name: its own table's three, then each child table's three. */
export function changeLogTriggers(dataset: Dataset): Map<string, string> {
  const out = new Map<string, string>();
  for (const event of EVENTS)
    out.set(`${dataset.table}_changed_${event[0]}`, trigger(dataset.table, event, dataset.name, dataset.key));
  for (const child of dataset.children ?? [])
    for (const event of EVENTS)
      out.set(`${child.table}_changed_${event[0]}`, trigger(child.table, event, dataset.name, [child.parent]));
  return out;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const names = process.argv.slice(2);
  const unknown = names.filter((n) => !DATASETS.some((d) => d.name === n));
  if (unknown.length > 0) {
    console.error(`no such dataset in server/db/change-log.ts: ${unknown.join(', ')}`);
    process.exit(1);
  }
  for (const dataset of DATASETS.filter((d) => names.length === 0 || names.includes(d.name)))
    for (const sql of changeLogTriggers(dataset).values()) console.log(`${sql}\n`);
}

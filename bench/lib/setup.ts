/**
 * The books in the server under test: one user, the generated books loaded through the product's
 * bulk path (the journal import), daily exchange rates and a sample of voided entries; or, over a
 * data folder a run loaded before, that run's user signed in again.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Manifest } from '../generate.ts';
import { Client } from './client.ts';
import { Random } from './random.ts';
import { since } from './stats.ts';

/** The accounts the rows use, by role, and every account. */
export interface Ids {
  checking: string;
  card: string;
  savings: string;
  amex: string;
  groceries: string;
  all: { id: string; name: string; type: string; currency: string }[];
}

/** Who loaded the books of a data folder (written once the load is complete): a later run over the folder signs in as them. */
interface BenchUser {
  email: string;
  password: string;
  /** the books they loaded: another size or seed is not reused */
  journalSha256: string;
}

/** The bench's user, signed in: their token, id, and how they sign in (the screens do, in the browser). */
export interface SignedIn {
  token: string;
  userId: string;
  email: string;
  password: string;
}

const USER_FILE = 'bench-user.json';
const PASSWORD = 'correct horse battery staple';

/** The user of a data folder whose books are already loaded (and match `manifest`), signed in; else none. */
export async function signInAgain(url: string, dataDir: string, manifest: Manifest): Promise<SignedIn | undefined> {
  const file = path.join(dataDir, USER_FILE);
  if (!fs.existsSync(file)) return undefined;
  const user = JSON.parse(fs.readFileSync(file, 'utf8')) as BenchUser;
  if (user.journalSha256 !== manifest.journalSha256) return undefined;
  const anonymous = new Client(url);
  const body = await anonymous.json('POST', '/api/auth/login', { email: user.email, password: user.password }, 200);
  anonymous.close();
  return { token: body.access_token, userId: body.id, email: user.email, password: user.password };
}

/** A new user in an empty data folder. */
export async function signUp(url: string): Promise<SignedIn> {
  const anonymous = new Client(url);
  const email = `bench-${Date.now()}@example.com`;
  const body = await anonymous.json('POST', '/api/auth/register', { email, name: 'Bench', password: PASSWORD });
  anonymous.close();
  return { token: body.access_token, userId: body.id, email, password: PASSWORD };
}

/** Remembers in the data folder who loaded the books, once they are all in: later runs over the folder sign in as them. */
export function rememberLoaded(dataDir: string, user: SignedIn, manifest: Manifest): void {
  const loaded: BenchUser = { email: user.email, password: user.password, journalSha256: manifest.journalSha256 };
  fs.writeFileSync(path.join(dataDir, USER_FILE), JSON.stringify(loaded, null, 2) + '\n');
}

/** The documented bulk path: POST /api/import/journal, a piece a request (each piece is atomic). */
export async function importPieces(
  client: Client,
  pieces: Iterable<{ text: string; entries: number }>,
  log: (line: string) => void,
): Promise<void> {
  for (const piece of pieces) {
    const start = process.hrtime.bigint();
    await client.ok('POST', '/api/import/journal?format=hledger', piece.text, 'text/plain');
    log(`    imported ${piece.entries} entries in ${(since(start) / 1000).toFixed(1)} s`);
  }
}

/**
 * Daily rates over the books' six years as a user imports them from a CSV file: EUR in USD
 * around 1.10 and USD in JPY around 140, drifting by day (JPY's rate into USD is then the inverse
 * of the opposite pair's).
 */
export async function importRates(client: Client): Promise<void> {
  const random = new Random('rates');
  const rows = ['date,from,to,rate'];
  let eur = 11000;
  let jpy = 14000;
  for (let t = Date.parse('2020-01-01T00:00:00Z'); t <= Date.parse('2025-12-31T00:00:00Z'); t += 86_400_000) {
    const day = new Date(t).toISOString().slice(0, 10);
    eur = Math.min(12500, Math.max(9500, eur + random.int(-40, 40)));
    jpy = Math.min(16000, Math.max(10000, jpy + random.int(-50, 50)));
    rows.push(`${day},EUR,USD,${Math.floor(eur / 10000)}.${String(eur % 10000).padStart(4, '0')}`);
    rows.push(`${day},USD,JPY,${Math.floor(jpy / 100)}.${String(jpy % 100).padStart(2, '0')}`);
  }
  const reply = await client.request('POST', '/api/prices/import', `${rows.join('\n')}\n`, 'text/csv');
  if (reply.status !== 201) throw new Error(`price import: ${reply.status} ${reply.text.slice(0, 200)}`);
}

/** Voids `n` posted entries on random days over HTTP; returns each void's time in ms. */
export async function voidSample(client: Client, manifest: Manifest, n: number): Promise<number[]> {
  const random = new Random('voids');
  const first = new Date(`${manifest.firstDay}T00:00:00Z`).getTime();
  const span = (new Date(`${manifest.lastDay}T00:00:00Z`).getTime() - first) / 86_400_000;
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const day = new Date(first + random.int(1, span) * 86_400_000).toISOString().slice(0, 10);
    const page = await client.json(
      'GET',
      `/api/journal-entries?start_date=${day}&end_date=${day}&status=posted&per_page=1`,
    );
    const entry = page.items[0];
    if (!entry || entry.reverses_entry_id) continue;
    const start = process.hrtime.bigint();
    await client.ok('POST', `/api/journal-entries/${entry.id}/void`, { reason: 'benchmark sample' });
    times.push(since(start));
  }
  return times;
}

/** The ids of the accounts the rows use, found by name after the load. */
export async function accountIds(client: Client, manifest: Manifest): Promise<Ids> {
  const all: Ids['all'] = [];
  for (let page = 1; ; page++) {
    const body = await client.json('GET', `/api/accounts?per_page=100&page=${page}`);
    all.push(...body.items);
    if (all.length >= body.total || body.items.length === 0) break;
  }
  // the import may name an account by its full path or by its last part
  const find = (name: string) => {
    const leaf = name.split(':').at(-1)!.toLowerCase();
    const hit =
      all.find((a) => a.name.toLowerCase() === name.toLowerCase()) ?? all.find((a) => a.name.toLowerCase() === leaf);
    if (!hit) throw new Error(`no account named ${name} after the load`);
    return hit.id;
  };
  const r = manifest.roles;
  return {
    checking: find(r.checking),
    card: find(r.card),
    savings: find(r.savings),
    amex: find(r.amex),
    groceries: find(r.groceries),
    all,
  };
}

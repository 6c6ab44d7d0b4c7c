import { execSync } from 'node:child_process';
import os from 'node:os';
import type { Summary } from './stats.ts';

/** A figure to meet: `p50`/`p99`/`max` at most `value` ms (or `unit`), or a ratio to the raw limit or ceiling at least `value`. */
export interface Target {
  text: string;
  stat: 'p50' | 'p99' | 'max' | 'ratio' | 'value';
  atMost?: number;
  atLeast?: number;
}

export interface PeerFigure {
  tool: string;
  n: number;
  p50: number;
  maxRssMb: number | null;
}

export interface Operation {
  id: string;
  label: string;
  unit: 'ms' | 's' | 'MB' | 'req/s';
  summary?: Summary;
  /** A single figure (memory, throughput) instead of a latency distribution. */
  value?: number;
  raw?: { label: string; summary?: Summary; value?: number };
  /** How the API compares with its raw limit: raw time / API time, or API rate / raw rate (higher is better, 1 = the floor). */
  ratio?: number;
  peers?: PeerFigure[];
  target?: Target;
  met?: boolean | null;
  note?: string;
  error?: string;
}

/** An operation's figures: what a measurement returns, the row's id, label and unit aside. */
export type Figures = Omit<Operation, 'id' | 'label' | 'unit'>;

/** A latency beside its raw limit: the ratio is the raw p50 over the API's. */
export function besideRaw(api: Summary, rawLabel: string, raw: Summary, target?: Target): Figures {
  return {
    summary: api,
    raw: { label: rawLabel, summary: raw },
    ratio: raw.p50 / api.p50,
    ...(target ? { target } : {}),
  };
}

/** A rate beside its ceiling or reference rate: the ratio is the one over the other. */
export function rateBeside(
  value: number,
  raw: { label: string; value: number },
  note: string,
  target?: Target,
): Figures {
  return { value, raw, ratio: value / raw.value, ...(target ? { target } : {}), note };
}

export function evaluate(op: Operation): boolean | null {
  const t = op.target;
  if (!t || op.error) return op.error ? false : null;
  const figure =
    t.stat === 'ratio'
      ? op.ratio
      : t.stat === 'value'
        ? op.value
        : t.stat === 'max'
          ? op.summary?.max
          : t.stat === 'p50'
            ? op.summary?.p50
            : op.summary?.p99;
  if (figure === undefined || Number.isNaN(figure)) return null;
  if (t.atMost !== undefined && figure > t.atMost) return false;
  if (t.atLeast !== undefined && figure < t.atLeast) return false;
  return true;
}

export function machine() {
  const cpus = os.cpus();
  let disk = '';
  try {
    disk = execSync('df -hT . | tail -1', { encoding: 'utf8' }).trim().split(/\s+/).slice(0, 2).join(' ');
  } catch {
    disk = 'unknown';
  }
  return {
    cpu: cpus[0]?.model ?? 'unknown',
    cores: cpus.length,
    memoryGb: Math.round(os.totalmem() / 2 ** 30),
    os: `${os.type()} ${os.release()}`,
    disk,
    node: process.version,
  };
}

function fmt(x: number | undefined, unit: string): string {
  if (x === undefined || Number.isNaN(x)) return '–';
  if (unit === 'req/s') return x.toFixed(0);
  if (unit === 'MB') return x.toFixed(0);
  if (unit === 's') return x.toFixed(2);
  return x < 1 ? x.toFixed(2) : x < 100 ? x.toFixed(1) : x.toFixed(0);
}

function peerCell(op: Operation, tool: string): string {
  const p = op.peers?.find((x) => x.tool === tool);
  if (!p) return '';
  const api = op.summary?.p50;
  const times = api ? ` (${(p.p50 / api).toFixed(0)}×)` : '';
  return `${fmt(p.p50, 'ms')}${times}`;
}

/** The one table: Markdown, so that it pastes into the README as it is printed. */
export function table(ops: readonly Operation[]): string {
  const header = [
    'operation',
    'unit',
    'n',
    'p50',
    'p99',
    'raw limit',
    'vs raw',
    'ledger',
    'hledger',
    'bean-query',
    'target',
    'met',
  ];
  const rows = ops.map((op) => {
    const s = op.summary;
    const raw = op.raw ? (op.raw.summary ? fmt(op.raw.summary.p50, op.unit) : fmt(op.raw.value, op.unit)) : '';
    return [
      op.label,
      op.unit,
      s ? String(s.n) : op.value !== undefined ? '1' : '',
      op.error ? `error: ${op.error.slice(0, 60)}` : s ? fmt(s.p50, op.unit) : fmt(op.value, op.unit),
      s ? fmt(s.p99, op.unit) : '',
      raw,
      op.ratio !== undefined ? `${(op.ratio * 100).toFixed(0)}%` : '',
      peerCell(op, 'ledger'),
      peerCell(op, 'hledger'),
      peerCell(op, 'bean-query'),
      op.target?.text ?? '',
      op.met === true ? 'yes' : op.met === false ? '**no**' : '',
    ];
  });
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

/** The rows of a run, in the order they were measured, each logged as it comes. */
export class Results {
  readonly ops: Operation[] = [];
  private readonly log: (line: string) => void;

  constructor(log: (line: string) => void) {
    this.log = log;
  }

  record(op: Operation): Operation {
    op.met = evaluate(op);
    this.ops.push(op);
    const s = op.summary;
    const figure = op.error
      ? `ERROR ${op.error}`
      : s
        ? `p50 ${s.p50.toFixed(2)} p99 ${s.p99.toFixed(2)} (n=${s.n})`
        : (op.value?.toFixed(2) ?? '–');
    const raw = op.raw?.summary ? ` | raw p50 ${op.raw.summary.p50.toFixed(3)}` : '';
    this.log(`  ${op.label}: ${figure} ${op.unit}${raw}${op.met === false ? '  [target missed]' : ''}`);
    return op;
  }

  /** Measures one row; a failure is recorded as the row's error and the run goes on. */
  async attempt(id: string, label: string, unit: Operation['unit'], fn: () => Promise<Figures>): Promise<Operation> {
    try {
      return this.record({ id, label, unit, ...(await fn()) });
    } catch (error) {
      return this.record({ id, label, unit, error: error instanceof Error ? error.message : String(error) });
    }
  }

  find(id: string): Operation | undefined {
    return this.ops.find((o) => o.id === id);
  }
}

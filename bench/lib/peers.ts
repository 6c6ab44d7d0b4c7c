import { spawnSync } from 'node:child_process';
import type { PeerFigure } from './results.ts';

export interface PeerCommand {
  tool: 'ledger' | 'hledger' | 'bean-query';
  args: string[];
}

function addDay(date: string): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

/** Each tool's own way to print every account's balance, today and as of a past date (inclusive). */
export function balanceCommands(
  files: { ledger: string; hledger: string; beancount: string },
  asOf?: string,
): PeerCommand[] {
  const end = asOf ? ['-e', addDay(asOf)] : [];
  return [
    { tool: 'ledger', args: ['-f', files.ledger, 'balance', ...end] },
    { tool: 'hledger', args: ['-f', files.hledger, 'balance', ...end] },
    {
      tool: 'bean-query',
      args: [
        files.beancount,
        asOf ? `SELECT account, sum(position) WHERE date <= ${asOf} GROUP BY account ORDER BY account` : 'balances',
      ],
    },
  ];
}

export function installed(tool: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).status === 0;
}

/** Wall time and peak memory of `runs` runs, through /usr/bin/time when it is there. */
export function timePeer(command: PeerCommand, runs: number): PeerFigure & { error?: string } {
  const times: number[] = [];
  let maxRss: number | null = null;
  const useTime = installed('/usr/bin/time');
  for (let i = 0; i < runs; i++) {
    const start = process.hrtime.bigint();
    const result = useTime
      ? spawnSync('/usr/bin/time', ['-f', 'maxrss=%M', command.tool, ...command.args], {
          encoding: 'utf8',
          maxBuffer: 1 << 28,
        })
      : spawnSync(command.tool, command.args, { encoding: 'utf8', maxBuffer: 1 << 28 });
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    if (result.status !== 0)
      return {
        tool: command.tool,
        n: times.length,
        p50: NaN,
        maxRssMb: null,
        error: (result.stderr || String(result.error)).slice(-300),
      };
    times.push(ms);
    const rss = /maxrss=(\d+)/.exec(result.stderr ?? '');
    if (rss) maxRss = Math.max(maxRss ?? 0, Number(rss[1]) / 1024);
  }
  times.sort((a, b) => a - b);
  return { tool: command.tool, n: runs, p50: times[Math.floor((times.length - 1) / 2)]!, maxRssMb: maxRss };
}

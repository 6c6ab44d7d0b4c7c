import { formatMinor, type Minor } from '../../domain/money.ts';
import type { Account } from '../accounts/accounts.model.ts';

/**
 * A cash flow's figures over its whole range: each counter account's money in and out summed from
 * its figures of every period, and the totals as the sums of those rows, so that what is printed
 * adds up.
 */
export class RangeFlows {
  private readonly byAccount = new Map<string, { account: Account; in: Minor; out: Minor }>();

  add(account: Account, moneyIn: Minor, moneyOut: Minor): void {
    const flow = this.byAccount.get(account.id) ?? { account, in: 0n, out: 0n };
    flow.in += moneyIn;
    flow.out += moneyOut;
    this.byAccount.set(account.id, flow);
  }

  summary(currency: string) {
    let [totalIn, totalOut] = [0n, 0n];
    const rows = [...this.byAccount.values()].map((f) => {
      totalIn += f.in;
      totalOut += f.out;
      return {
        account_id: f.account.id,
        name: f.account.name,
        type: f.account.type,
        money_in: formatMinor(f.in, currency),
        money_out: formatMinor(f.out, currency),
        net: formatMinor(f.in - f.out, currency),
      };
    });
    return {
      by_account: rows,
      total_in: formatMinor(totalIn, currency),
      total_out: formatMinor(totalOut, currency),
      net: formatMinor(totalIn - totalOut, currency),
    };
  }
}

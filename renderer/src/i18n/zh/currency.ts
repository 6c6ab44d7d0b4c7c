import type { Texts } from '../keys.ts';
import type { currency as en } from '../en/currency.ts';

/** Currencies: the home currency, converted figures, exchanges in the entry editor. */
export const currency: Texts<typeof en> = {
  currency: {
    home: '本位币',
    homeHint: '仪表盘、报表和顾问以此货币显示数字。',
    homeSaved: '现在以 {currency} 显示数字。',
    confirmTitle: '你的本位币',
    confirmHint: '合计、报表和新建账户都使用它。它按你电脑的地区选出：如果不对，请在这里更改（设置中也可以更改）。',
    confirm: '使用 {currency}',
    switchLabel: '显示方式',
    inHome: '折合 {currency}',
    perCurrency: '按币种',
    missing: '{date} 没有 {from} 兑 {to} 的汇率：合计中未计入 {from}。',
    addRates: '录入汇率',
    unrealized: '未实现汇兑损益',
    cost: '成本',
    addCost: '货币兑换：第 {n} 行以另一种货币计的成本',
    costAmount: '第 {n} 行的成本',
    costCurrency: '第 {n} 行成本的货币',
    removeCost: '删除第 {n} 行的成本',
    rate: '1 {from} = {rate} {to}',
    automatic: '自动',
    automaticHint: '货币兑换账户上的自动分录使每种货币各自平衡。',
    problem: {
      cost: '成本不是该货币的有效金额',
      same: '成本必须使用与该行不同的货币',
    },
  },
};

import type { Texts } from '../keys.ts';
import type { dashboard as en } from '../en/dashboard.ts';

/** The dashboard. */
export const dashboard: Texts<typeof en> = {
  dashboard: {
    netWorth: '净资产',
    assets: '资产',
    liabilities: '负债',
    incomeThisMonth: '本月收入',
    spendingThisMonth: '本月支出',
    summaryFor: '{currency} 汇总',
    reconciliation: '银行交易匹配',
    reconciledOf: '{total} 笔银行交易中已匹配分录 {done} 笔',
    reconciledThrough: '{account}：已与银行余额对账至 {date}',
    neverReconciled: '{account}：尚未与银行余额对账',
    noStatements: '还没有导入银行对账单',
    importStatement: '导入对账单',
    chartCurrency: '图表币种',
    netWorthChart: '近 12 个月净资产（{currency}）',
    netWorthChartLabel: '{currency} 每月净资产折线图；当前 {value}',
    spendingChart: '每月各账户支出（{currency}）',
    spendingChartLabel: '{currency} 每月支出柱状图，共 {count} 个支出账户',
    noHistory: '近 12 个月没有已过账的分录',
    noHistoryHint: '在日记账中过账后，净资产会显示在这里。',
    noSpending: '近 6 个月没有支出',
    noSpendingHint: '记录一笔从银行或现金账户支付的支出，它就会显示在这里。',
    recordEntry: '记一笔分录',
    emptyTitle: '欢迎！你的账本还是空的。',
    emptyHint: '先创建账户：存钱的地方（资产）、欠款（负债），以及收入和支出类别。',
    emptyAction: '创建账户',
  },
};

import type { Texts } from '../keys.ts';
import type { prices as en } from '../en/prices.ts';

/** The rates screen. */
export const prices: Texts<typeof en> = {
  prices: {
    title: '汇率',
    intro:
      '汇率表示某日一单位货币值多少另一种货币。折算为单一货币时，每个数字使用其日期当天或之前最近的汇率（或反向货币对汇率的倒数）。',
    latest: '各货币对的最新汇率',
    pair: '货币对',
    rate: '汇率',
    date: '日期',
    from: '源货币',
    to: '目标货币',
    none: '还没有汇率：请录入一个或导入 CSV 文件。',
    add: '录入汇率',
    save: '保存汇率',
    saved: '已保存：{date} 1 {from} = {rate} {to}。',
    import: '导入汇率',
    importHint:
      'CSV 文件：首行为表头，包含 date、from、to、rate 列，之后每行一个汇率。已登记证券的价格也可作为一行：from 填代码，to 填其货币（2026-02-01,VTI,USD,250.00）。',
    file: 'CSV 文件',
    importButton: '导入',
    importing: '导入中…',
    imported: '新增 {created} 个汇率，替换 {replaced} 个。',
    importedSecurities: '新增 {created} 个汇率，替换 {replaced} 个；其中 {securities} 个为证券价格。',
    all: '全部汇率',
    delete: '删除 {date} 的 {pair} 汇率',
    oneUnit: '1 {from} = {rate} {to}',
  },
};

import type { Texts } from '../keys.ts';
import type { register as en } from '../en/register.ts';

/** An account's register. */
export const register: Texts<typeof en> = {
  register: {
    title: '明细账',
    allAccounts: '← 全部账户',
    balanceToday: '今日余额',
    dates: '明细账日期',
    allDates: '全部日期',
    keys: '↑ ↓ 在各行间移动，Enter 在列表旁打开该行分录，Page Up / Page Down 翻页，Esc 关闭。',
    tableLabel: '{name} 的明细账',
    transfer: '对方账户',
    cleared: '已核对',
    balance: '余额',
    pages: '明细账分页',
    empty: '该账户还没有已过账的记录',
    emptyHint: '分录过账后会显示在这里，最新的在前，并附每行之后的余额。',
    noLinesInRange: '该账户在这段日期内没有已过账的记录',
    noLinesInRangeHint: '请更改日期，或显示全部日期。',
  },
};

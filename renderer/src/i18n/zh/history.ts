import type { Texts } from '../keys.ts';
import type { history as en } from '../en/history.ts';

/** History: every change to the books, on this computer and the group's others. */
export const history: Texts<typeof en> = {
  history: {
    title: '历史记录',
    hint: '这套账本的每一项更改，最新的在前，包括这台电脑和同步组里其他电脑上的更改。',
    list: '更改，最新的在前',
    when: '时间',
    device: '电脑',
    what: '更改内容',
    thisComputer: '这台电脑',
    otherComputer: '另一台电脑（{id}）',
    change: '{kind}{action}：{label}',
    undone: '（已撤销）',
    byUndo: '（撤销操作）',
    emptyTitle: '还没有更改',
    emptyHint: '对账户、分录、规则和设置的更改会在发生时列在这里。',
    pages: '历史记录分页',
    newer: '较新',
    older: '较早',
    undo: '撤销这台电脑的上一项更改',
    undoing: '正在撤销…',
    undoneNotice: '已撤销：{what}。',
    kind: {
      journal_entries: '分录',
      accounts: '账户',
      rules: '规则',
      schedules: '计划',
      schedule_occurrences: '计划发生项',
      budget_lines: '预算项',
      prices: '汇率',
      settings: '设置',
      csv_mappings: 'CSV 映射',
      currency_trading_accounts: '交易账户',
    },
    action: {
      created: '已创建',
      changed: '已修改',
      deleted: '已删除',
      posted: '已过账',
      voided: '已作废',
      deactivated: '已停用',
    },
    error: {
      NOTHING_TO_UNDO: '这台电脑没有可以撤销的更改了。',
      UNDO_NOT_POSSIBLE: '上一项更改是作废，无法撤销：请重新录入该分录。',
    },
  },
};

import type { Texts } from '../keys.ts';
import type { kinds as en } from '../en/kinds.ts';

/** Names of the ledger's own kinds (account types, entry states and sources), shown on several screens. */
export const kinds: Texts<typeof en> = {
  type: {
    ASSET: '资产',
    LIABILITY: '负债',
    EQUITY: '权益',
    INCOME: '收入',
    EXPENSE: '支出',
  },
  types: {
    ASSET: '资产',
    LIABILITY: '负债',
    EQUITY: '权益',
    INCOME: '收入',
    EXPENSE: '支出',
  },
  status: {
    draft: '草稿',
    posted: '已过账',
    void: '已作废',
  },
  source: {
    manual: '手工',
    import: '导入',
    system: '系统',
    reconciliation: '对账',
    schedule: '定期',
  },
};

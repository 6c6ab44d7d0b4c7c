import type { Texts } from '../keys.ts';
import type { attachments as en } from '../en/attachments.ts';

/** Receipts and files attached to entries and bank lines. */
export const attachments: Texts<typeof en> = {
  attachments: {
    title: '收据与文件',
    listOf: '{name}的文件',
    none: '尚未附加文件。',
    attach: '附加文件…',
    attachTo: '为{name}附加文件',
    dropHint: 'PDF、JPEG、PNG 或 HEIC，每个不超过 20 MB，最多 {n} 个；也可把文件拖到这里。',
    preview: '{name}的预览',
    kind: '{kind} 文件',
    open: '打开',
    save: '保存',
    download: '保存{name}',
    delete: '删除',
    deleteLabel: '删除{name}',
    confirmDelete: '删除{name}？',
    working: '正在处理文件…',
    count: '已附加 {n} 个文件',
    unsupported: '只能附加 PDF、JPEG、PNG 和 HEIC 文件；此文件不属于这些类型。',
    tooLarge: '此文件超过 20 MB；请附加较小的副本。',
    limit: '这里放不下更多文件：每个分录或银行流水最多 10 个，全部文件合计最多 2 GB。',
    waiting: '等待同步',
    waitingHint: '{name}是在另一台电脑上附加的；文件内容随同步到达后即可打开。',
  },
};

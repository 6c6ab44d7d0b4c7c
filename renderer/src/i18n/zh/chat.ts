import type { Texts } from '../keys.ts';
import type { chat as en } from '../en/chat.ts';

/** The advisor panel. */
export const chat: Texts<typeof en> = {
  chat: {
    toggle: '理财顾问',
    title: '理财顾问',
    close: '关闭理财顾问',
    unavailable: '本地模型（{model}）不可用；将由内置顾问根据你的账本回答。',
    sessions: '对话（{count}）',
    newConversation: '新对话',
    noSessions: '还没有对话。',
    deleteSession: '删除对话“{title}”',
    conversation: '与顾问的对话',
    intro: '可以询问余额、支出、收入和对账情况。回答基于你自己的账本，数据不会离开这台电脑。',
    you: '你',
    advisor: '顾问',
    thinking: '思考中…',
    stopped: '（已停止）',
    suggestions: '推荐问题',
    question: '你的问题',
    placeholder: '输入问题…（Enter 发送，Shift+Enter 换行）',
    send: '发送',
    stop: '停止',
    unverified: '未核实：账本中找不到这个数字',
  },
};

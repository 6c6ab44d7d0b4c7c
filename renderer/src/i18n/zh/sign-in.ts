import type { Texts } from '../keys.ts';
import type { signIn as en } from '../en/sign-in.ts';

/** The sign-in screen. */
export const signIn: Texts<typeof en> = {
  auth: {
    tagline: '复式记账，数据只保存在你的电脑上。',
    signIn: '登录',
    signUp: '注册',
    createAccount: '创建我的账本',
    modeLabel: '登录或注册',
    email: '电子邮箱',
    name: '你的名字',
    password: '密码',
    passwordRule: '至少 8 个字符，且不能只有空格。',
    stay: '保持登录',
    stayOn: '在你退出之前，这台电脑会保持登录。',
    stayOff: '关闭窗口后将自动退出登录。',
    signingIn: '正在登录…',
    creating: '正在创建账本…',
    sessionEnded: '你已退出登录（{reason}）。请重新登录。',
    signOut: '退出登录',
    wrongLogin: '邮箱或密码不正确。请检查后重试。',
    tooMany: '尝试次数过多：请在 {wait}后重试。',
    tooManySignUps: '这台电脑创建的账户过多：请在 {wait}后重试。',
    lockedOutHelp:
      '这是你的账本，而这些尝试不是你做的？这台电脑上账本数据文件夹的所有者可以在终端里立即设置新密码：{command}',
  },
};

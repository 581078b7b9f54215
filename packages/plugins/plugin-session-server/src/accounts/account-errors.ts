// The coded errors of accounts and password login (docs/session-protocol.md 「Accounts and password login」). None
// carries a password or a hash; a failed login never says whether the account exists.
import { defineErrors } from '@aalis/core';

export const accountErrors = defineErrors({
  AALIS_WEBUI_LOGIN_FAILED: {
    statusCode: 401,
    en: 'Wrong account or password. Check both and try again; the owner can set a new password in Admin → Accounts.',
    'zh-CN': '账号或密码不对。请核对后再试；owner 可以在「管理 → 账号」里设新密码。',
  },
  AALIS_WEBUI_LOGIN_THROTTLED: {
    statusCode: 429,
    en: 'Too many failed logins for this account or from this address. Try again in {seconds} seconds (after {at} UTC).',
    'zh-CN': '这个账号或这个地址登录失败太多次。请 {seconds} 秒后再试（UTC {at} 之后）。',
  },
  AALIS_WEBUI_ACCOUNT_EXISTS: {
    statusCode: 409,
    en: 'There is already an account "{userId}". Pick another id, or edit that account.',
    'zh-CN': '已经有账号「{userId}」了。请换一个 id，或去编辑那个账号。',
  },
  AALIS_WEBUI_ACCOUNT_UNKNOWN: {
    statusCode: 404,
    en: 'There is no account "{userId}". List the accounts again.',
    'zh-CN': '没有账号「{userId}」。请重新列出账号。',
  },
  AALIS_WEBUI_ACCOUNT_DECLARED: {
    statusCode: 409,
    en: 'The account "{userId}" is declared in the configuration file ({key}), so its {what} cannot be changed here. Edit aalis.config.yaml.',
    'zh-CN': '账号「{userId}」是在配置文件里声明的（{key}），所以这里不能改它的{what}。请编辑 aalis.config.yaml。',
  },
  AALIS_WEBUI_PASSWORD_WEAK: {
    statusCode: 400,
    en: 'The password has {length} characters; use {min} to {max}. Nothing was changed.',
    'zh-CN': '密码有 {length} 个字符，应为 {min} 到 {max} 个。什么也没有改。',
  },
  AALIS_WEBUI_PASSWORD_WRONG: {
    statusCode: 403,
    en: 'The current password is not right, so the password was not changed. Type the one you log in with now.',
    'zh-CN': '当前密码不对，所以没有改密码。请输入你现在登录用的密码。',
  },
  AALIS_WEBUI_LOGIN_UNKNOWN: {
    statusCode: 404,
    en: 'There is no login "{id}" of this account (it may have ended already). List the login sessions again.',
    'zh-CN': '这个账号没有登录「{id}」（它可能已经结束了）。请重新列出登录会话。',
  },
});

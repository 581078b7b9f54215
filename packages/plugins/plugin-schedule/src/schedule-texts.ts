// Texts of plugin-schedule: tools, commands, the firing's wording, the idle-prompt settings, and coded errors.
import { defineCatalogue, defineErrors } from '@aalis/core';

export const scheduleTexts = defineCatalogue({
  'zh-CN': {
    'schedule.tool.create':
      '定一个提醒或定时任务：到时宿主以一条定时任务消息开一轮，你在那一轮里做 prompt 说的事（提醒谁、查什么、汇报什么）。三选一：at（某个时刻，ISO 8601，如 2026-12-02T09:00，不带时差时按 timeZone）、inMinutes（多少分钟之后）、cron（五段或六段的 cron 表达式，按 timeZone 重复）。返回任务 id。',
    'schedule.tool.create.prompt': '到时要做的事，写给那时的你：要提醒的内容或要执行的任务。',
    'schedule.tool.create.at': '触发的时刻，ISO 8601（如 2026-12-02T09:00 或 2026-12-02T09:00+08:00）。',
    'schedule.tool.create.inMinutes': '多少分钟之后触发（可带小数）。',
    'schedule.tool.create.cron': 'cron 表达式，如 0 9 * * 1-5（工作日 9 点）。',
    'schedule.tool.create.timeZone': 'IANA 时区，如 Asia/Shanghai；不给即宿主的时区。',
    'schedule.tool.list': '列出本会话的提醒与定时任务：id、状态、下次触发时间、内容。',
    'schedule.tool.cancel': '取消本会话的一个提醒或定时任务。',
    'schedule.tool.cancel.id': '要取消的任务 id（schedule_list 列出）。',
    'schedule.created': '已定好：id={id}，下次触发 {next}（{timeZone}）。',
    'schedule.cancelled': '已取消 {id}。',
    'schedule.notScheduled': '{id} 已不在计划中（状态：{status}）。',
    'schedule.list.empty': '本会话没有提醒或定时任务。',
    'schedule.fire': '[定时任务 {id}] {prompt}',
    'schedule.command.remind': '定一个提醒：/remind <时刻或时长> <内容>，时长如 10m、2h、1d，时刻如 2026-12-02T09:00',
    'schedule.command.remind.usage': '<时刻|时长> <内容>',
    'schedule.command.cron': '定一个重复的任务：/schedule.cron "<cron 表达式>" <内容> [--tz <时区>]',
    'schedule.command.cron.usage': '"<cron 表达式>" <内容> [--tz <时区>]',
    'schedule.command.list': '列出本会话的提醒与定时任务',
    'schedule.command.cancel': '取消一个提醒或定时任务：/schedule.cancel <id>',
    'schedule.command.cancel.usage': '<id>',
    'schedule.command.missing': '缺少参数。用法：{usage}',
    'schedule.cancel.refused': '只有定下它的人和 owner 能取消',
    'schedule.field.idlePrompt': '空闲开话题',
    'schedule.field.idlePrompt.description':
      '会话安静了一段时间后，宿主以这段提示开一轮，让她自己起个话题；留空即不开（默认）。提示不进历史。',
    'schedule.field.idleAfterMinutes': '空闲多久开话题（分钟）',
    'schedule.field.idleAfterMinutes.description': '会话最后一轮结束后安静多少分钟，才以「空闲开话题」的提示开一轮。',
    'schedule.field.positive': '大于 0 的数',
  },
  en: {
    'schedule.tool.create':
      'Sets a reminder or a scheduled task: at its time the host opens a turn with a scheduled-task message, and in that turn you do what `prompt` says (remind someone, look something up, report). Give exactly one of: `at` (a moment, ISO 8601 such as 2026-12-02T09:00, read in `timeZone` when it has no offset), `inMinutes` (minutes from now), `cron` (a five- or six-field cron expression, repeating in `timeZone`). Returns the task id.',
    'schedule.tool.create.prompt': 'What to do at that time, written to your future self: the reminder or the task.',
    'schedule.tool.create.at': 'When to fire, ISO 8601 (2026-12-02T09:00 or 2026-12-02T09:00+08:00).',
    'schedule.tool.create.inMinutes': 'Minutes from now (may be fractional).',
    'schedule.tool.create.cron': 'A cron expression, e.g. 0 9 * * 1-5 (09:00 on weekdays).',
    'schedule.tool.create.timeZone': 'An IANA time zone such as Europe/Paris; default: the host’s.',
    'schedule.tool.list': 'Lists this session’s reminders and scheduled tasks: id, status, next firing, text.',
    'schedule.tool.cancel': 'Cancels one of this session’s reminders or scheduled tasks.',
    'schedule.tool.cancel.id': 'The id of the task to cancel (schedule_list lists them).',
    'schedule.created': 'Scheduled: id={id}, next firing {next} ({timeZone}).',
    'schedule.cancelled': 'Cancelled {id}.',
    'schedule.notScheduled': '{id} is no longer scheduled (status: {status}).',
    'schedule.list.empty': 'This session has no reminders or scheduled tasks.',
    'schedule.fire': '[Scheduled task {id}] {prompt}',
    'schedule.command.remind':
      'Sets a reminder: /remind <time or duration> <text>; durations like 10m, 2h, 1d, times like 2026-12-02T09:00',
    'schedule.command.remind.usage': '<time|duration> <text>',
    'schedule.command.cron': 'Sets a repeating task: /schedule.cron "<cron expression>" <text> [--tz <zone>]',
    'schedule.command.cron.usage': '"<cron expression>" <text> [--tz <zone>]',
    'schedule.command.list': 'Lists this session’s reminders and scheduled tasks',
    'schedule.command.cancel': 'Cancels a reminder or scheduled task: /schedule.cancel <id>',
    'schedule.command.cancel.usage': '<id>',
    'schedule.command.missing': 'Something is missing. Usage: {usage}',
    'schedule.cancel.refused': 'Only the person who set it and the owner can cancel it',
    'schedule.field.idlePrompt': 'Idle prompt',
    'schedule.field.idlePrompt.description':
      'After the session has been quiet for a while, the host opens a turn with this prompt so she can start a topic; empty = never (the default). The prompt is not kept in the history.',
    'schedule.field.idleAfterMinutes': 'Quiet time before the idle prompt (minutes)',
    'schedule.field.idleAfterMinutes.description':
      'How many minutes after the session’s last turn the idle prompt opens a turn.',
    'schedule.field.positive': 'a number greater than 0',
  },
});

export const scheduleErrors = defineErrors({
  AALIS_SCHEDULE_CRON_INVALID: {
    'zh-CN':
      'cron 表达式 {cron} 不对：{reason}。应为五段（分 时 日 月 周）或六段（秒 分 时 日 月 周），如 0 9 * * 1-5。',
    en: 'The cron expression {cron} is not valid: {reason}. Use five fields (minute hour day month weekday) or six (with seconds first), e.g. 0 9 * * 1-5.',
  },
  AALIS_SCHEDULE_NEVER_FIRES: {
    'zh-CN': 'cron 表达式 {cron} 永远不会触发（如 2 月 30 日）。请换一个会到来的时间。',
    en: 'The cron expression {cron} never fires (such as February 30). Use a time that comes.',
  },
  AALIS_SCHEDULE_TIME_INVALID: {
    'zh-CN': '时间 {at} 看不懂：请写 ISO 8601 时刻（如 2026-12-02T09:00）或时长（如 10m、2h、1d）。',
    en: 'The time {at} cannot be read: write an ISO 8601 moment (2026-12-02T09:00) or a duration (10m, 2h, 1d).',
  },
  AALIS_SCHEDULE_TIME_PAST: {
    'zh-CN': '时间 {at} 已经过去了（{timeZone}）。请给一个将来的时刻。',
    en: 'The time {at} is already past ({timeZone}). Give a moment in the future.',
  },
  AALIS_SCHEDULE_TIME_ZONE_UNKNOWN: {
    'zh-CN': '没有时区 {zone}。请用 IANA 时区名，如 Asia/Shanghai、Europe/Paris、UTC。',
    en: 'There is no time zone {zone}. Use an IANA zone name such as Asia/Shanghai, Europe/Paris or UTC.',
  },
  AALIS_SCHEDULE_WHEN_AMBIGUOUS: {
    'zh-CN': '请在 at、inMinutes、cron 里恰好给一个（现在给了 {given} 个）。',
    en: 'Give exactly one of at, inMinutes and cron ({given} given).',
  },
  AALIS_SCHEDULE_PROMPT_EMPTY: {
    'zh-CN': 'prompt 不能为空：写出到时要做的事。',
    en: '`prompt` must not be empty: say what to do at that time.',
  },
  AALIS_SCHEDULE_UNKNOWN: {
    'zh-CN': '本会话没有任务 {id}（schedule_list 或 /schedules 列出它们）。',
    en: 'This session has no task {id} (schedule_list or /schedules lists them).',
  },
});

// The console's texts of the runtime: each plugin's one-line description in zh-CN (the English one is the slot's
// `summary`, which the configuration reference prints too) and why a change cannot be made live.
import { defineCatalogue } from '@aalis/core';

/** zh-CN descriptions of the runtime's plugins, by alias (the en text of each is its slot's summary). */
const DESCRIPTIONS_ZH: Record<string, string> = {
  storage: '存储：数据目录里的一个 SQLite 数据库，或 PostgreSQL（database）。',
  hooks: '洋葱式中间件链（agent:*、inbound:*、memory:clear 等）。',
  contributions: '向命名扩展点的贡献（agent:prompt）。',
  host: '平台登记、插件列表、持久化的服务偏好。',
  commands: '斜杠命令、/help 和 /clear。',
  authority: '主人与用户等级。',
  'session-manager': '会话、会话类型与删除。',
  'session-settings': '分层的会话设置，以及 /session、/session.set、/session.reset。',
  tools: '工具登记与执行。',
  memory: 'SQLite 中的对话历史。',
  'message-archive': '把输入和回复存进历史。',
  persona: '人格：<dataDir>/personas/*.yaml。',
  gateway: '入站流水线（命令 → 流控 → 触发 → 分发）。',
  mute: '禁言：/mute [时长]、/unmute 和禁言关键词；她照读不说；多进程共享。',
  budget: '按人/天、群/天、部署/月的 token 或费用预算（来自 llm:usage）；/budget。有这一节才启用。',
  'flow-control': '冷却与限速：冷却、令牌桶限速、免打扰时段、模型并发上限与公平排队。有这一节才启用。',
  'llm-openai': '任意 OpenAI 兼容接口；设置了 llm.baseUrl（或本节的 baseUrl）时启用。',
  'llm-anthropic':
    '通过 Anthropic Messages API 使用 Claude（提示缓存、思考预算）；有这一节或 ANTHROPIC_API_KEY 时启用。',
  'llm-offline': '离线演示模型；没有配置模型服务时启用。',
  agent: '对话编排器（轮次引擎）。',
  'memory-summary': '把过长的历史压缩成摘要。',
  'memory-vector': '长期记忆：为每条存档消息建全文索引，把参与者看得到的最相关旧消息召回到每一轮。',
  'user-profile': '档案：记下每个人的事实（memory_remember、memory_forget），这个人说话时提供；可选的轮后提取。',
  skills: '技能：她存下以便复用的做法（skill_save、skill_search、经对方确认的 skill_delete），按相关性提供。',
  'prompt-budget': 'prompt_budget_info 自检工具。',
  subtask: '子会话中的子任务：spawn_subtask、wait_subtasks、stop_subtask、后台子任务。',
  schedule: '提醒与周期任务（cron、时区），每次只触发一次；空闲提示。',
  workflow: '工作流（编排）：<dataDir>/workflows/<name>.yaml 中由各类节点组成的有向图；workflow_run、/workflow、定时。',
  media:
    '为看不见图的模型描述图片（describeModel，按内容缓存）；describe_image。语音消息转写（transcription）；语音回复（speech，会话设置 voiceReply）。',
  'file-reader': '读取别人发来的文件（各种编码的文本、Markdown、CSV、PDF、DOCX、XLSX、PPTX）；read_uploaded_file。',
  'basic-tools': 'current_time 和 calculator 工具。',
  otel: 'OpenTelemetry 追踪（invoke_agent、chat、execute_tool），经 OTLP/HTTP 导出；仅在设置了 OTEL_EXPORTER_OTLP_ENDPOINT 时启用。',
  'platform-onebot':
    '通过 OneBot v11 实现（NapCat、Lagrange、go-cqhttp）接入 QQ；设置了 url 或 mode 为 reverse 时启用。',
  'platform-telegram': '通过 Bot API（长轮询）接入 Telegram；设置了 token 时启用。',
  'platform-satori': '接入 Satori 服务器桥接的所有平台（Koishi 的适配器、Chronocat 等）；设置了 endpoint 时启用。',
  'platform-discord':
    '通过网关和 REST API 接入 Discord（服务器频道、子区各为一个会话、私信、斜杠命令）；设置了 token 时启用。',
  'platform-lark': '通过长连接接入飞书和 Lark（群聊与单聊、@ 提及、富文本与卡片）；设置了 appId 和 appSecret 时启用。',
  'platform-slack':
    '通过 Socket Mode 和 Web API 接入 Slack（频道、话题串各为一个会话、私信）；设置了 botToken 和 appToken 时启用。',
  'platform-qq':
    '通过 QQ 开放平台机器人 API v2（网关 WebSocket）接入 QQ 官方机器人：群聊 @ 消息与单聊，被动回复；设置了 appId 时启用。',
  'platform-dingtalk':
    '通过 Stream 模式（dingtalk-stream）接入钉钉机器人：群聊 @ 与单聊，经会话 Webhook 或接口回复；设置了 clientId 时启用。',
  'platform-wecom': '通过加密回调接入企业微信智能机器人（API 模式）：群聊 @ 与单聊，流式回复；设置了 token 时启用。',
  mcp: 'MCP 服务器的工具（stdio 或 HTTP），以 mcp__<server>__<tool> 提供；配置了服务器时启用。',
  'session-server': '会话服务器：HTTP + WebSocket 会话协议、登录链接、WebUI 页面（aalis start、aalis serve）。',
  cli: '终端平台（aalis start、aalis chat）。',
};

defineCatalogue({
  'zh-CN': {
    'runtime.console.essential': '没有它 Aalis 或控制台本身就无法运行。',
    'runtime.console.restartOnly': '它的设置只在下次启动时生效（控制台本身依赖它），请编辑配置文件后重启。',
    'runtime.console.problem': '应为 {expected}，实际为 {received}。',
    'runtime.console.file': '配置文件 {file}',
    'runtime.console.database': '各进程共享的数据库（aalis_config）',
  },
  en: {
    'runtime.console.essential': 'Aalis or the console itself cannot run without it.',
    'runtime.console.restartOnly':
      'its settings take effect only at the next start (the console itself runs on it): edit the configuration file and restart.',
    'runtime.console.problem': 'expected {expected}, received {received}.',
    'runtime.console.file': 'the configuration file {file}',
    'runtime.console.database': 'the database every process shares (aalis_config)',
  },
});

/** The zh-CN description of a runtime plugin, when the catalogue has one. */
export function describedInChinese(alias: string): string | undefined {
  return DESCRIPTIONS_ZH[alias];
}

// Every text `create-aalis` shows or writes, in zh-CN and en.
import { defineCatalogue } from '@aalis/core';

export const createTexts = defineCatalogue({
  'zh-CN': {
    'create.usage':
      '用法：npm create aalis@latest [目录] -- [选项]\n\n选项：\n  --template minimal|standard|full  模板（默认 standard）\n      minimal：终端与 WebUI,SQLite\n      standard：再加长期记忆、图片与语音、读文件、定时提醒、子任务、编排与 MCP\n      full：全部第一方插件（平台与可观测性的段落写好待填）\n  --llm-base-url <地址>             OpenAI 兼容接口的地址（不填：离线演示模型）\n  --llm-model <模型>                模型名（不填：用接口列出的第一个）\n  --llm-api-key <密钥>              API key（写进 aalis.config.yaml，文件只有自己可读）\n  --platform onebot|telegram        接入的平台，可重复\n  --onebot-url <地址>               OneBot v11 的 WebSocket 地址\n  --telegram-token <令牌>           Telegram 机器人令牌\n  --no-install                      只写文件，不运行 npm install\n  --yes                             不提问，没给的都用默认值\n  --lang zh-CN|en                   文字与生成的 README 的语言\n  --help                            显示这段说明',
    'create.error.unknownOption': '不认识的选项 {option}。运行 npm create aalis@latest -- --help 查看全部选项。',
    'create.error.missingValue': '选项 {option} 需要一个值，例如 {option} {example}。',
    'create.error.badChoice': '{option} 只能是 {choices}，收到的是「{value}」。',
    'create.error.extraArgument': '只能给一个目录，多出了「{value}」。',
    'create.error.noDirectory': '没有给目录。用法：npm create aalis@latest 我的机器人',
    'create.error.notEmpty': '目录 {dir} 已存在且不是空的：没有改动任何文件。换一个目录名，或先清空它。',
    'create.error.badUrl': '{option} 应是 {prefix} 开头的地址，收到的是「{value}」。',
    'create.error.platformNeeds': '接入 {platform} 需要 {option}（或交互模式下回答它）。',
    'create.error.installFailed':
      'npm install 失败（退出码 {code}）：文件已写好，在 {dir} 里重新运行 npm install 即可；上面是 npm 的输出。',
    'create.ask.directory': '放在哪个目录?',
    'create.ask.template': '模板（minimal / standard / full）',
    'create.ask.baseUrl': 'OpenAI 兼容接口的地址（直接回车：离线演示模型）',
    'create.ask.model': '模型名（直接回车：用接口列出的第一个）',
    'create.ask.apiKey': 'API key（直接回车：不需要）',
    'create.ask.platforms': '接入哪些平台（onebot、telegram，用逗号分隔；直接回车：不接）',
    'create.ask.onebotUrl': 'OneBot v11 的 WebSocket 地址',
    'create.ask.telegramToken': 'Telegram 机器人令牌',
    'create.done.written': '已在 {dir} 写好 package.json、aalis.config.yaml 与 README.md。',
    'create.done.installing': '正在安装依赖（npm install）…',
    'create.done.next': '完成。接下来：\n  cd {dir}\n  npm start\n启动时会打印 WebUI 的登录链接。',
    'create.done.nextInstall': '接下来：\n  cd {dir}\n  npm install\n  npm start',
    'create.readme.title': '# {name}\n\n一个 Aalis 部署（模板：{template}），由 `npm create aalis` 生成。',
    'create.readme.body':
      '## 运行\n\n```sh\nnpm start          # 终端对话；启动时打印 WebUI 的一次性登录链接\nnpm run serve      # 不要终端：只开会话服务器、WebUI 与已配置的平台\nnpm run webui-link # 再取一个 WebUI 登录链接\n```\n\n配置在 `aalis.config.yaml`（每一项都有注释；完整参考：@aalis/runtime 的配置参考）。数据（对话、设置、日志）在 `data/`。\n\n## 模型\n\n{model}',
    'create.readme.offline':
      '没有配置模型服务：回复来自离线演示模型。在 `aalis.config.yaml` 里填写 `llm.baseUrl`、`llm.model`（以及 `llm.apiKey`），或设置环境变量 `AALIS_LLM_BASE_URL`、`AALIS_LLM_MODEL`、`AALIS_LLM_API_KEY`。',
    'create.readme.endpoint': '模型服务：{baseUrl}（模型：{model}）。',
    'create.readme.firstModel': '接口列出的第一个',
    'create.config.header':
      '# Aalis 的配置（由 npm create aalis 生成，模板 {template}）。每一项的说明与默认值：@aalis/runtime 的配置参考。\n# 环境变量优先于这里的值：AALIS_LLM_BASE_URL、AALIS_LLM_API_KEY、AALIS_LLM_MODEL、AALIS_WEBUI_PORT……',
  },
  en: {
    'create.usage':
      'Usage: npm create aalis@latest [directory] -- [options]\n\nOptions:\n  --template minimal|standard|full  the template (default standard)\n      minimal: terminal and WebUI, SQLite\n      standard: plus long-term memory, images and voice, file reading, reminders, subtasks, workflows and MCP\n      full: every first-party plugin (platform and tracing sections written, to fill in)\n  --llm-base-url <url>              an OpenAI-compatible endpoint (none: the offline demo model)\n  --llm-model <id>                  the model (none: the first one the endpoint lists)\n  --llm-api-key <key>               the API key (written to aalis.config.yaml, readable by you only)\n  --platform onebot|telegram        a platform to join, repeatable\n  --onebot-url <url>                the OneBot v11 WebSocket address\n  --telegram-token <token>          the Telegram bot token\n  --no-install                      write the files only, no npm install\n  --yes                             ask nothing, defaults for what is not given\n  --lang zh-CN|en                   the language of these texts and of the README written\n  --help                            this text',
    'create.error.unknownOption': 'Unknown option {option}. Run npm create aalis@latest -- --help for the options.',
    'create.error.missingValue': 'The option {option} needs a value, e.g. {option} {example}.',
    'create.error.badChoice': '{option} takes {choices}, not "{value}".',
    'create.error.extraArgument': 'One directory only; "{value}" is one too many.',
    'create.error.noDirectory': 'No directory given. Usage: npm create aalis@latest my-bot',
    'create.error.notEmpty':
      'The directory {dir} exists and is not empty: nothing was changed. Pick another name, or empty it first.',
    'create.error.badUrl': '{option} takes an address starting with {prefix}, not "{value}".',
    'create.error.platformNeeds': 'Joining {platform} needs {option} (or its answer when asked).',
    'create.error.installFailed':
      'npm install failed (exit code {code}): the files are written; run npm install again in {dir}. npm said what went wrong above.',
    'create.ask.directory': 'Which directory?',
    'create.ask.template': 'Template (minimal / standard / full)',
    'create.ask.baseUrl': 'OpenAI-compatible endpoint (Enter: the offline demo model)',
    'create.ask.model': 'Model (Enter: the first one the endpoint lists)',
    'create.ask.apiKey': 'API key (Enter: none needed)',
    'create.ask.platforms': 'Platforms to join (onebot, telegram, comma-separated; Enter: none)',
    'create.ask.onebotUrl': 'OneBot v11 WebSocket address',
    'create.ask.telegramToken': 'Telegram bot token',
    'create.done.written': 'Wrote package.json, aalis.config.yaml and README.md in {dir}.',
    'create.done.installing': 'Installing the dependencies (npm install)…',
    'create.done.next': 'Done. Next:\n  cd {dir}\n  npm start\nThe start prints the WebUI login link.',
    'create.done.nextInstall': 'Next:\n  cd {dir}\n  npm install\n  npm start',
    'create.readme.title': '# {name}\n\nAn Aalis deployment (template: {template}), made by `npm create aalis`.',
    'create.readme.body':
      "## Running it\n\n```sh\nnpm start          # chat in the terminal; the start prints a one-time WebUI login link\nnpm run serve      # no terminal: the session server, the WebUI and the configured platforms\nnpm run webui-link # another WebUI login link\n```\n\nThe configuration is `aalis.config.yaml` (every key is commented; the full reference is @aalis/runtime's configuration reference). The data (conversations, settings, logs) is in `data/`.\n\n## The model\n\n{model}",
    'create.readme.offline':
      'No model endpoint is configured: the offline demo model answers. Set `llm.baseUrl`, `llm.model` (and `llm.apiKey`) in `aalis.config.yaml`, or the environment variables `AALIS_LLM_BASE_URL`, `AALIS_LLM_MODEL`, `AALIS_LLM_API_KEY`.',
    'create.readme.endpoint': 'Model endpoint: {baseUrl} (model: {model}).',
    'create.readme.firstModel': 'the first one it lists',
    'create.config.header':
      "# Aalis's configuration (made by npm create aalis, template {template}). What each key does and its default:\n# @aalis/runtime's configuration reference. Environment variables win over this file: AALIS_LLM_BASE_URL,\n# AALIS_LLM_API_KEY, AALIS_LLM_MODEL, AALIS_WEBUI_PORT, …",
  },
});

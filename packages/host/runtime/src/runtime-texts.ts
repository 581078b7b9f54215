// Every fixed text the runtime and the aalis command show, in zh-CN and en.
import { defineCatalogue } from '@aalis/core';

export const runtimeTexts = defineCatalogue({
  'zh-CN': {
    'runtime.banner.title': 'Aalis {version} · 模型：{model} · 数据目录：{dataDir} · 会话：{session}',
    'runtime.banner.offline':
      '⚠ 没有配置模型服务：回复来自离线演示模型（offline）。要接真正的模型，设置环境变量 AALIS_LLM_BASE_URL（以及 AALIS_LLM_API_KEY、AALIS_LLM_MODEL），或在 {file} 里填写 llm.baseUrl，也可以在 WebUI 的「管理 → 模型」里接入，不用改文件。任何 OpenAI 兼容接口都可以（托管 API、Ollama、vLLM、llama.cpp server）。',
    'runtime.banner.offlineTools':
      '  离线模型也能调用工具：输入 call: current_time 或 call: calculator {"expression":"2*(3+4)"}。',
    'runtime.banner.hint': '直接输入消息；/help 看指令；Ctrl-C 停下在跑的一轮，两秒内按两次退出。',
    'runtime.banner.model': '{id}（{name}）',
    'runtime.banner.noModel': '（没有可用模型）',
    'runtime.banner.noModelAtAll':
      '⚠ 没有可用模型：没有配置模型服务，离线演示模型也关掉了（plugins.llm-offline: false），消息得不到回复。要接真正的模型，设置环境变量 AALIS_LLM_BASE_URL（以及 AALIS_LLM_API_KEY、AALIS_LLM_MODEL），或在 {file} 里填写 llm.baseUrl。',
    'runtime.banner.endpointEmpty':
      '⚠ 模型服务 {baseUrl} 没有提供任何模型：请设置 llm.model（或 AALIS_LLM_MODEL），或检查这个地址与 API key（详情见日志）。',
    'runtime.banner.created': '已在 {file} 写入带注释的默认配置。',
    'runtime.plugin.error': '⚠ 插件 {plugin} 出错：{reason}',
    'runtime.plugin.pending': '⚠ 插件 {plugin} 没有启动：缺少服务 {missing}',
    'runtime.start.essential': '必需的插件没有启动（{plugins}），Aalis 无法运行。',
    'runtime.shutdown.signal': '收到 {signal}，正在收尾（在跑的一轮会停下）…',
    'runtime.shutdown.forced': '再次收到 {signal}，立即退出。',
    'runtime.config.header': '配置有误，Aalis 没有启动，什么也没有改动：',
    'runtime.config.footer': '改好后重新运行；删掉这个文件会在下次运行时重新生成默认配置。',
    'runtime.config.footer.fix': '改好后重新运行。',
    'runtime.config.where.file': '{file} 第 {line} 行第 {column} 列',
    'runtime.config.where.fileOnly': '{file}',
    'runtime.config.where.env': '环境变量 {variable}',
    'runtime.config.syntax': '{where}：YAML 语法错误：{reason}',
    'runtime.config.issue': '{where}：{path} 应为 {expected}，实际为 {received}',
    'runtime.config.unknownPlugin': '{where}：{path} 不是已知的插件（已知：{known}）',
    'runtime.config.pluginNotInstalled':
      '{where}：{path} 是可选插件 {name} 的配置，但这个部署没有安装它（AALIS_RUNTIME_PLUGIN_NOT_INSTALLED）。在部署目录里运行 aalis plugin add {name} 再重新启动；不用它就删掉这一段，或写成 false。',
    'runtime.config.pluginSection': '一个对象（插件的配置段）、true 或 false',
    'runtime.config.listedTwice': '每个插件一段（{alias} 与 {name} 是同一个插件，写了两次）',
    'runtime.config.required': '一个配置段或 true（没有这个插件 Aalis 无法运行）',
    'runtime.config.proxy':
      '一个 http:// 代理地址，如 http://host:port 或 http://user:password@host:port（proxy: "" 表示不经代理直接连接）',
    'runtime.config.caFile': '一个可读的 PEM 文件（要信任的 CA 证书；相对路径按工作目录）',
    'runtime.config.caFileMissing': '{path}，读不了（{reason}）',
    'runtime.config.notObject': '{where}：整个文件应是一个映射（键：值），实际为 {received}',
    'runtime.config.unreadable': '读不了配置文件 {file}：{reason}',
    'runtime.config.missing':
      '配置文件 {file} 不存在（由 --config 指定，不会自动创建）。请检查路径，或去掉 --config，使用工作目录里的 aalis.config.yaml（第一次运行时生成）。',
    'runtime.config.baseUrl.not-a-url': '一个 http:// 或 https:// 地址，例如 https://api.openai.com/v1',
    'runtime.config.baseUrl.scheme':
      '一个 http:// 或 https:// 地址（模型服务只支持这两种协议），例如 https://api.openai.com/v1',
    'runtime.config.baseUrl.port': '一个端口有效（1–65535）的 http:// 或 https:// 地址，例如 http://127.0.0.1:8080/v1',
    'runtime.cli.usage':
      '用法：aalis [start] [--session <id>] [--config <文件>]   交互式对话（默认）\n      aalis chat [--session <id>] [--config <文件>]    从标准输入逐行读消息，回复写到标准输出\n      aalis serve [--config <文件>]                    无终端运行：会话服务器与 WebUI、已启用的平台\n      aalis webui-link [--account <id>] [--config <文件>]   打印一个新的 WebUI 登录链接\n      aalis plugin add <npm 包名> | aalis plugin remove <名字>   在这个部署里安装或移除插件\n      aalis memory reindex [--config <文件>]           按配置的向量模型重建长期记忆的向量\n      aalis --help | --version\n\n配置：工作目录里的 aalis.config.yaml（第一次运行时生成），环境变量覆盖它：\n  AALIS_LLM_BASE_URL  AALIS_LLM_API_KEY  AALIS_LLM_MODEL  AALIS_DATA_DIR  AALIS_LOG_LEVEL  AALIS_LOCALE\n  AALIS_DATABASE_URL  AALIS_WEBUI_HOST  AALIS_WEBUI_PORT',
    'runtime.cli.badArgument': '不认识的参数：{argument}',
    'runtime.banner.webui': 'WebUI 登录链接（{minutes} 分钟内有效、只能用一次；aalis webui-link 再取一个）：{link}',
    'runtime.webuiLink.running': '登录链接（{minutes} 分钟内有效，只能用一次）：',
    'runtime.webuiLink.notRunning':
      '会话服务器现在没有运行（先运行 aalis serve 或 aalis start）；它在 {url} 启动后，这个链接在 {minutes} 分钟内可用：',
    'runtime.webuiLink.unknownAccount':
      '没有 WebUI 账号「{account}」。owner 的账号是「{owner}」；其余账号列在 plugins.session-server.accounts。',
    'runtime.webuiLink.disabled': '配置里关掉了会话服务器（plugins.session-server: false），没有 WebUI 可登录。',
    'runtime.cli.missingValue': '{option} 后面需要一个值',
    'runtime.tools.currentTime': '返回当前的日期和时间（ISO 8601 与给定时区的本地时间）。',
    'runtime.tools.currentTime.timeZone': 'IANA 时区，例如 Asia/Shanghai；不填用系统时区',
    'runtime.tools.calculator':
      '计算一个算术表达式：+ - * / % ^、括号、sqrt abs round floor ceil min max log ln exp sin cos tan、常量 pi e。',
    'runtime.tools.calculator.expression': '要计算的表达式，例如 2*(3+4)^2',
  },
  en: {
    'runtime.banner.title': 'Aalis {version} · model: {model} · data: {dataDir} · session: {session}',
    'runtime.banner.offline':
      '⚠ No model endpoint is configured: replies come from the offline demo model. To talk to a real model, set AALIS_LLM_BASE_URL (and AALIS_LLM_API_KEY, AALIS_LLM_MODEL), or llm.baseUrl in {file}, or connect one in the WebUI under Admin → Models without editing a file. Any OpenAI-compatible endpoint works (hosted APIs, Ollama, vLLM, llama.cpp server).',
    'runtime.banner.noModelAtAll':
      '⚠ No model is available: no model endpoint is configured and the offline demo model is turned off (plugins.llm-offline: false), so messages get no reply. To talk to a real model, set AALIS_LLM_BASE_URL (and AALIS_LLM_API_KEY, AALIS_LLM_MODEL), or llm.baseUrl in {file}.',
    'runtime.banner.offlineTools':
      '  The offline model can call tools too: type call: current_time or call: calculator {"expression":"2*(3+4)"}.',
    'runtime.banner.hint':
      'Type a message; /help lists the commands; Ctrl-C stops the running turn, twice within two seconds exits.',
    'runtime.banner.model': '{id} ({name})',
    'runtime.banner.noModel': '(no model available)',
    'runtime.banner.endpointEmpty':
      '⚠ The model endpoint {baseUrl} offers no model: set llm.model (or AALIS_LLM_MODEL), or check the address and the API key (details in the log).',
    'runtime.banner.created': 'Wrote the default configuration, with comments, to {file}.',
    'runtime.plugin.error': '⚠ Plugin {plugin} failed: {reason}',
    'runtime.plugin.pending': '⚠ Plugin {plugin} did not start: missing services {missing}',
    'runtime.start.essential': 'Required plugins did not start ({plugins}); Aalis cannot run.',
    'runtime.shutdown.signal': 'Received {signal}: finishing (a running turn is stopped)…',
    'runtime.shutdown.forced': 'Received {signal} again: exiting now.',
    'runtime.config.header': 'The configuration has errors; Aalis did not start and changed nothing:',
    'runtime.config.footer': 'Fix it and run again; delete the file to get a fresh default on the next run.',
    'runtime.config.footer.fix': 'Fix it and run again.',
    'runtime.config.where.file': '{file} line {line}, column {column}',
    'runtime.config.where.fileOnly': '{file}',
    'runtime.config.where.env': 'environment variable {variable}',
    'runtime.config.syntax': '{where}: YAML syntax error: {reason}',
    'runtime.config.issue': '{where}: {path} expected {expected}, received {received}',
    'runtime.config.unknownPlugin': '{where}: {path} is not a known plugin (known: {known})',
    'runtime.config.pluginNotInstalled':
      "{where}: {path} configures the optional plugin {name}, which this deployment has not installed (AALIS_RUNTIME_PLUGIN_NOT_INSTALLED). Run aalis plugin add {name} in the deployment's directory and start again; to go without it, delete the section or write false.",
    'runtime.config.pluginSection': "an object (the plugin's section), true or false",
    'runtime.config.listedTwice': 'one section per plugin ({alias} and {name} are the same plugin, listed twice)',
    'runtime.config.required': 'a section or true (Aalis cannot run without this plugin)',
    'runtime.config.proxy':
      'an http:// proxy URL, like http://host:port or http://user:password@host:port (proxy: "" connects directly)',
    'runtime.config.caFile':
      'a readable PEM file of the CA certificates to trust (a relative path is from the working directory)',
    'runtime.config.caFileMissing': '{path}, which cannot be read ({reason})',
    'runtime.config.notObject': '{where}: the file must be a mapping (key: value), received {received}',
    'runtime.config.unreadable': 'Cannot read the configuration file {file}: {reason}',
    'runtime.config.missing':
      'The configuration file {file} does not exist (named with --config, so it is not created). Check the path, or leave out --config to use aalis.config.yaml in the working directory (written on the first run).',
    'runtime.config.baseUrl.not-a-url': 'an http:// or https:// URL, e.g. https://api.openai.com/v1',
    'runtime.config.baseUrl.scheme':
      'an http:// or https:// URL (the only protocols a model endpoint speaks), e.g. https://api.openai.com/v1',
    'runtime.config.baseUrl.port':
      'an http:// or https:// URL with a valid port (1–65535), e.g. http://127.0.0.1:8080/v1',
    'runtime.cli.usage':
      'Usage: aalis [start] [--session <id>] [--config <file>]   interactive chat (default)\n       aalis chat [--session <id>] [--config <file>]    one message per line of standard input, replies on standard output\n       aalis serve [--config <file>]                    headless: the session server and WebUI, the enabled platforms\n       aalis webui-link [--account <id>] [--config <file>]   prints a fresh WebUI login link\n       aalis plugin add <npm name> | aalis plugin remove <name>   installs or removes a plugin in this deployment\n       aalis memory reindex [--config <file>]           rebuilds long-term memory’s vectors with the configured model\n       aalis --help | --version\n\nConfiguration: aalis.config.yaml in the working directory (created on the first run); environment variables override it:\n  AALIS_LLM_BASE_URL  AALIS_LLM_API_KEY  AALIS_LLM_MODEL  AALIS_DATA_DIR  AALIS_LOG_LEVEL  AALIS_LOCALE\n  AALIS_DATABASE_URL  AALIS_WEBUI_HOST  AALIS_WEBUI_PORT',
    'runtime.cli.badArgument': 'Unknown argument: {argument}',
    'runtime.banner.webui':
      'WebUI login link (valid for {minutes, plural, one {# minute} other {# minutes}}, once; aalis webui-link prints another): {link}',
    'runtime.webuiLink.running': 'Login link (valid for {minutes, plural, one {# minute} other {# minutes}}, once):',
    'runtime.webuiLink.notRunning':
      'The session server is not running now (start it with aalis serve or aalis start); once it runs at {url}, this link works for {minutes, plural, one {# minute} other {# minutes}}:',
    'runtime.webuiLink.unknownAccount':
      'There is no WebUI account "{account}". The owner\'s account is "{owner}"; other accounts are listed in plugins.session-server.accounts.',
    'runtime.webuiLink.disabled':
      'The session server is turned off in the configuration (plugins.session-server: false): there is no WebUI to log in to.',
    'runtime.cli.missingValue': '{option} needs a value',
    'runtime.tools.currentTime': 'Returns the current date and time (ISO 8601, and the local time in a time zone).',
    'runtime.tools.currentTime.timeZone': 'IANA time zone, e.g. Europe/Paris; default: the system time zone',
    'runtime.tools.calculator':
      'Evaluates an arithmetic expression: + - * / % ^, parentheses, sqrt abs round floor ceil min max log ln exp sin cos tan, constants pi e.',
    'runtime.tools.calculator.expression': 'The expression, e.g. 2*(3+4)^2',
  },
});

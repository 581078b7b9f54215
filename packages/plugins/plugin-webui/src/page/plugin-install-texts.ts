// Texts of the console's plugins from the registry (the 添加插件/Add plugin form, 移除/Remove on an installed plugin's
// row, an add's or a remove's progress and outcome), in zh-CN and en, beside the page's other texts.
import { defineCatalogue } from '@aalis/core';
import { pageTranslator } from './page-translator.js';

/** A text of the plugins-from-the-registry section in the page's language. */
export const ti = pageTranslator(
  defineCatalogue({
    'zh-CN': {
      'webui-install.title': '来自注册表的插件',
      'webui-install.intro':
        '按 npm 包名添加第三方插件（可带 @版本）。安装前后都会检查：它声明的 @aalis/core 版本范围要包含这个部署的版本，且能加载；任何一步失败都会把部署恢复原样。',
      'webui-install.add': '添加插件',
      'webui-install.spec': 'npm 包名',
      'webui-install.placeholder': '例如 aalis-plugin-weather 或 @scope/name@^1.2.0',
      'webui-install.remove': '移除',
      'webui-install.unavailable': '这里不能添加插件：',
      'webui-install.phase.resolving': '正在解析依赖树（npm）…',
      'webui-install.phase.fetching': '正在下载并解包（npm）：已解包 {count} 个包…',
      'webui-install.phase.building': '正在运行安装脚本（npm）…',
      'webui-install.phase.checking': '正在检查：@aalis/core 版本范围与试加载…',
      'webui-install.phase.loading': '正在启用…',
      'webui-install.phase.rolling-back': '出错了，正在把部署恢复原样…',
      'webui-install.phase.finished': '已结束。',
      'webui-install.adding': '正在添加 {target}',
      'webui-install.removing': '正在移除 {target}',
      'webui-install.added': '已添加 {name} {version}，现在已在运行；它的设置在上面的插件列表里。',
      'webui-install.addedRestart': '已添加 {name} {version}；重新启动 Aalis 后生效。',
      'webui-install.removed': '已移除 {name}，它已停止运行。',
      'webui-install.removedRestart': '已移除 {name}；重新启动 Aalis 后生效。',
      'webui-install.notStarted': '它现在没能启动：',
      'webui-install.failedAdd': '没能添加 {target}。',
      'webui-install.failedRemove': '没能移除 {target}。',
      'webui-install.unchanged': '部署没有任何变化。',
    },
    en: {
      'webui-install.title': 'Plugins from the registry',
      'webui-install.intro':
        'Add a third-party plugin by its npm name (optionally with @version). It is checked — the @aalis/core range it declares must include this deployment’s, and it must load — and if any step fails the deployment is put back as it was.',
      'webui-install.add': 'Add plugin',
      'webui-install.spec': 'npm package name',
      'webui-install.placeholder': 'e.g. aalis-plugin-weather or @scope/name@^1.2.0',
      'webui-install.remove': 'Remove',
      'webui-install.unavailable': 'Plugins cannot be added here: ',
      'webui-install.phase.resolving': 'Resolving the dependency tree (npm)…',
      'webui-install.phase.fetching':
        'Downloading and unpacking (npm): {count, plural, one {# package} other {# packages}} unpacked…',
      'webui-install.phase.building': 'Running install scripts (npm)…',
      'webui-install.phase.checking': 'Checking the @aalis/core range and a test load…',
      'webui-install.phase.loading': 'Starting it…',
      'webui-install.phase.rolling-back': 'Something failed; putting the deployment back as it was…',
      'webui-install.phase.finished': 'Finished.',
      'webui-install.adding': 'Adding {target}',
      'webui-install.removing': 'Removing {target}',
      'webui-install.added': 'Added {name} {version}: it runs now; its settings are in the plugin list above.',
      'webui-install.addedRestart': 'Added {name} {version}; it takes effect after Aalis restarts.',
      'webui-install.removed': 'Removed {name}: it has stopped.',
      'webui-install.removedRestart': 'Removed {name}; it takes effect after Aalis restarts.',
      'webui-install.notStarted': 'It did not start now: ',
      'webui-install.failedAdd': 'Could not add {target}.',
      'webui-install.failedRemove': 'Could not remove {target}.',
      'webui-install.unchanged': 'The deployment is unchanged.',
    },
  }),
);

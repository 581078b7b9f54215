// The coded errors of @aalis/core. Codes are never reused.
import { defineErrors } from './errors.js';

export const coreErrors = defineErrors({
  AALIS_SERVICE_UNAVAILABLE: {
    en: 'Service "{service}" has no provider for plugin {plugin}. Add and enable a plugin that provides it, or check `handle.available` before using an optional service.',
    'zh-CN':
      '服务「{service}」对插件 {plugin} 没有提供者。请添加并启用提供它的插件，或在使用可选服务前检查 handle.available。',
  },
  AALIS_CONFIG_INVALID: {
    en: 'Plugin {plugin}: config field "{field}" expected {expected}, received {received}. Fix this field in the plugin\'s configuration section.',
    'zh-CN': '插件 {plugin}：配置字段「{field}」应为 {expected}，实际为 {received}。请修改该插件配置段里的这一项。',
  },
  AALIS_PLUGIN_APPLY_FAILED: {
    en: 'Plugin {plugin} failed to start: {reason}',
    'zh-CN': '插件 {plugin} 启动失败：{reason}',
  },
  AALIS_PROVIDES_MISSING: {
    en: 'Plugin {plugin} declares that it provides "{service}" but did not register it during apply. Call provide.use.service({service}, implementation) in apply, or remove it from `provides`.',
    'zh-CN':
      '插件 {plugin} 声明提供「{service}」，但 apply 期间没有登记它。请在 apply 中调用 provide.use.service，或从 provides 中去掉它。',
  },
  AALIS_PLUGIN_DUPLICATE: {
    en: 'A plugin instance with id "{id}" is already registered. Give the second instance its own id: app.plugin(definition, config, { id: "…" }).',
    'zh-CN': '已有 id 为「{id}」的插件实例。请给第二个实例另起一个 id:app.plugin（definition, config, { id: "…" }）。',
  },
  AALIS_PLUGIN_UNKNOWN: {
    en: 'No plugin instance with id "{id}". Known instances: {known}.',
    'zh-CN': '没有 id 为「{id}」的插件实例。已有的实例：{known}。',
  },
  AALIS_HOOK_NEXT_TWICE: {
    en: 'A middleware of hook "{hook}" called next() twice. Call next() at most once per middleware.',
    'zh-CN': '钩子「{hook}」的一个中间件调用了两次 next（）。每个中间件最多调用一次 next（）。',
  },
  AALIS_DRAIN_TIMEOUT: {
    en: 'Plugin {plugin} did not finish draining within {ms} ms; shutting it down anyway.',
    'zh-CN': '插件 {plugin} 没有在 {ms} 毫秒内收尾，仍将关停它。',
  },
});

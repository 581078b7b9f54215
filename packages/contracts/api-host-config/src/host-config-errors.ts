// The coded errors of a configuration change made through hostConfig.write (the console's Save, on/off switches).
import { defineErrors } from '@aalis/core';

export const hostConfigErrors = defineErrors({
  AALIS_HOST_CONFIG_CHANGED: {
    en: 'The configuration was changed since this page read it ({source}): nothing was saved. Reload to see the current values, then make the change again.',
    'zh-CN': '配置在此页读取之后被改过（{source}），这次没有保存。请重新加载以查看当前的值，再改一次。',
    statusCode: 409,
  },
  AALIS_HOST_CONFIG_INVALID: {
    en: '{key}: {problem} Nothing was changed; correct the value and save again.',
    'zh-CN': '{key}：{problem}没有改动任何东西；请改正后再保存。',
  },
  AALIS_HOST_CONFIG_PROTECTED: {
    en: '{plugin} cannot be turned off: {reason}',
    'zh-CN': '{plugin} 不能关闭：{reason}',
  },
  AALIS_HOST_CONFIG_UNKNOWN_PLUGIN: {
    en: 'There is no plugin "{plugin}". Known: {known}.',
    'zh-CN': '没有插件「{plugin}」。已知的有：{known}。',
    statusCode: 404,
  },
  AALIS_HOST_CONFIG_START_FAILED: {
    en: '{plugin} did not start with the new settings ({reason}); the previous settings are running again and nothing was saved.',
    'zh-CN': '{plugin} 用新的设置没能启动（{reason}）；已恢复之前的设置并继续运行，这次没有保存。',
  },
  AALIS_HOST_CONFIG_NOT_WRITTEN: {
    en: 'The configuration could not be stored ({reason}); the change was taken back. Check that {target} is writable.',
    'zh-CN': '配置没能保存（{reason}），改动已撤回。请检查 {target} 是否可写。',
  },
});

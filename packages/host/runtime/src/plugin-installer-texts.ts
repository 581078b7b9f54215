// The texts of the console's plugin installer (why plugins cannot be added here), in zh-CN and en.
import { defineCatalogue } from '@aalis/core';

export const pluginInstallerTexts = defineCatalogue({
  'zh-CN': {
    'runtime.pluginInstaller.noDeployment':
      '{dir} 里没有 package.json，这个 Aalis 不是从一个部署目录（npm create aalis 生成的那种）启动的。',
    'runtime.pluginInstaller.checkout':
      '{dir} 是 Aalis 源代码仓库（npm workspaces），不是部署目录；在仓库里请用 npm install 添加依赖。',
    'runtime.pluginInstaller.badManifest': '{dir} 里的 package.json 不是有效的 JSON，请先修正它。',
    'runtime.pluginInstaller.closing': 'Aalis 正在停止。',
  },
  en: {
    'runtime.pluginInstaller.noDeployment':
      'there is no package.json in {dir}: this Aalis was not started from a deployment’s directory (as npm create aalis makes one).',
    'runtime.pluginInstaller.checkout':
      '{dir} is a checkout of the Aalis repository (npm workspaces), not a deployment; in a checkout add dependencies with npm install.',
    'runtime.pluginInstaller.badManifest': 'the package.json in {dir} is not valid JSON; correct it first.',
    'runtime.pluginInstaller.closing': 'Aalis is shutting down.',
  },
});

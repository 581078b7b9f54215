// The texts of `aalis plugin add|remove`, in zh-CN and en.
import { defineCatalogue } from '@aalis/core';

export const pluginCommandTexts = defineCatalogue({
  'zh-CN': {
    'runtime.plugin.noProject':
      '{dir} 里没有 package.json：aalis plugin 要在一个部署的目录里运行（npm create aalis 生成的那种）。',
    'runtime.plugin.busy':
      '另一个 aalis plugin 正在这个部署里安装或移除插件（锁：{lock}）。等它结束再试；确定没有在运行时，删掉这个目录。',
    'runtime.plugin.installing': '正在安装 {spec}（npm install）…',
    'runtime.plugin.removing': '正在移除 {name}（npm uninstall）…',
    'runtime.plugin.npmFailed': 'npm {command} 失败（退出码 {code}），上面是 npm 的输出。',
    'runtime.plugin.npmFailedCode': 'npm {command} 失败（{npmCode}，退出码 {code}）：{why}',
    'runtime.plugin.npmCode': 'npm 的错误代码是 {npmCode}。',
    'runtime.plugin.npmCode.E404': '注册表里没有这个包（名字拼错了，或它没有发布到这个注册表）。',
    'runtime.plugin.npmCode.ETARGET': '注册表里没有符合这个版本或标签的发布。',
    'runtime.plugin.npmCode.ERESOLVE': '依赖无法共存——通常是它要求的 @aalis/core 版本范围不包含这个部署的版本。',
    'runtime.plugin.npmCode.EINTEGRITY': '下载的包与注册表给出的校验值不符。',
    'runtime.plugin.npmCode.ENOTFOUND': '连不上注册表（域名解析失败）。',
    'runtime.plugin.npmCode.ECONNREFUSED': '连不上注册表（连接被拒绝）。',
    'runtime.plugin.aborted': 'Aalis 正在停止，npm {command} 已中止。',
    'runtime.plugin.npmTimeout': 'npm {command} 超过 {minutes} 分钟没有结束，已停止。',
    'runtime.plugin.npmOutputTooLarge': 'npm {command} 的输出超过 {kib} KiB，已停止。',
    'runtime.plugin.notPlugin':
      '{name} 不是 Aalis 插件：它的 package.json 没有在 peerDependencies 里声明 @aalis/core 的版本范围。',
    'runtime.plugin.incompatible': '{name} 要求 @aalis/core {range}，这个部署装的是 {installed}：{problem}',
    'runtime.plugin.loadFailed': '{name} 加载失败：{reason}',
    'runtime.plugin.notDefinition': '{name} 的默认导出不是插件定义（需要 name 与 apply）。',
    'runtime.plugin.rolledBack':
      '已撤销：package.json、package-lock.json 与 node_modules 恢复成安装前的样子，部署没有变化。',
    'runtime.plugin.rollbackFailed':
      '撤销时 npm install 失败（退出码 {code}）：package.json 与 package-lock.json 已恢复，请在 {dir} 里运行 npm install。',
    'runtime.plugin.added':
      '已添加 {name}@{version}。重新启动 Aalis 后生效；设置写在 aalis.config.yaml 的 plugins.{name} 下。',
    'runtime.plugin.notInstalled': '{name} 不是这个部署的依赖，没有可移除的。',
    'runtime.plugin.removed': '已移除 {name}。重新启动 Aalis 后生效。',
  },
  en: {
    'runtime.plugin.noProject':
      'There is no package.json in {dir}: run aalis plugin in a deployment’s directory (as npm create aalis makes one).',
    'runtime.plugin.busy':
      'Another aalis plugin is installing or removing a plugin in this deployment (lock: {lock}). Try again when it has finished; if none is running, delete that directory.',
    'runtime.plugin.installing': 'Installing {spec} (npm install)…',
    'runtime.plugin.removing': 'Removing {name} (npm uninstall)…',
    'runtime.plugin.npmFailed': 'npm {command} failed (exit code {code}); npm said why above.',
    'runtime.plugin.npmFailedCode': 'npm {command} failed ({npmCode}, exit code {code}): {why}',
    'runtime.plugin.npmCode': 'npm’s error code is {npmCode}.',
    'runtime.plugin.npmCode.E404':
      'the registry has no such package (a typo in the name, or it is not published to this registry).',
    'runtime.plugin.npmCode.ETARGET': 'the registry has no release matching that version or tag.',
    'runtime.plugin.npmCode.ERESOLVE':
      'its dependencies cannot be satisfied together — usually the @aalis/core range it needs does not include this deployment’s.',
    'runtime.plugin.npmCode.EINTEGRITY': 'the downloaded package does not match the checksum the registry gave.',
    'runtime.plugin.npmCode.ENOTFOUND': 'the registry cannot be reached (its name does not resolve).',
    'runtime.plugin.npmCode.ECONNREFUSED': 'the registry cannot be reached (the connection was refused).',
    'runtime.plugin.aborted': 'Aalis is shutting down: npm {command} was stopped.',
    'runtime.plugin.npmTimeout':
      'npm {command} did not finish within {minutes, plural, one {# minute} other {# minutes}} and was stopped.',
    'runtime.plugin.npmOutputTooLarge': 'npm {command} wrote more than {kib} KiB of output and was stopped.',
    'runtime.plugin.notPlugin':
      '{name} is not an Aalis plugin: its package.json declares no @aalis/core range in peerDependencies.',
    'runtime.plugin.incompatible': '{name} needs @aalis/core {range}; this deployment has {installed}: {problem}',
    'runtime.plugin.loadFailed': '{name} does not load: {reason}',
    'runtime.plugin.notDefinition':
      'The default export of {name} is not a plugin definition (it needs name and apply).',
    'runtime.plugin.rolledBack':
      'Rolled back: package.json, package-lock.json and node_modules are as they were before; the deployment is unchanged.',
    'runtime.plugin.rollbackFailed':
      'npm install failed while rolling back (exit code {code}): package.json and package-lock.json are restored; run npm install in {dir}.',
    'runtime.plugin.added':
      'Added {name}@{version}. It runs from the next start of Aalis; its settings go under plugins.{name} in aalis.config.yaml.',
    'runtime.plugin.notInstalled': '{name} is not a dependency of this deployment: nothing to remove.',
    'runtime.plugin.removed': 'Removed {name}. It is gone from the next start of Aalis.',
  },
});

// Every text `create-aalis-plugin` shows, in zh-CN and en.
import { defineCatalogue } from '@aalis/core';

export const pluginTemplateTexts = defineCatalogue({
  'zh-CN': {
    'createPlugin.usage':
      '用法：npm create aalis-plugin@latest <目录> -- [--name <npm 包名>] [--lang zh-CN|en]\n写出一个 Aalis 插件包：index.js（插件定义）、package.json（声明兼容的 @aalis/core 版本）、test/plugin.test.js（在真实的宿主里启动它）与 README。',
    'createPlugin.error.noDirectory': '没有给目录。用法：npm create aalis-plugin@latest 我的插件',
    'createPlugin.error.notEmpty': '目录 {dir} 已存在且不是空的：没有改动任何文件。',
    'createPlugin.error.badName': '「{name}」不是合法的 npm 包名（小写字母、数字、-、.、_，可带 @作用域/）。',
    'createPlugin.error.unknownOption':
      '不认识的选项 {option}。运行 npm create aalis-plugin@latest -- --help 查看用法。',
    'createPlugin.done':
      '已在 {dir} 写好插件 {name}。接下来：\n  cd {dir}\n  npm install\n  npm test\n在一个部署里：npx aalis plugin add <这个包的 npm 名或打包文件>',
  },
  en: {
    'createPlugin.usage':
      'Usage: npm create aalis-plugin@latest <directory> -- [--name <npm name>] [--lang zh-CN|en]\nWrites an Aalis plugin package: index.js (the plugin definition), package.json (the @aalis/core versions it works with), test/plugin.test.js (starts it in a real host) and a README.',
    'createPlugin.error.noDirectory': 'No directory given. Usage: npm create aalis-plugin@latest my-plugin',
    'createPlugin.error.notEmpty': 'The directory {dir} exists and is not empty: nothing was changed.',
    'createPlugin.error.badName':
      '"{name}" is not a valid npm package name (lower case letters, digits, -, ., _, an optional @scope/).',
    'createPlugin.error.unknownOption':
      'Unknown option {option}. Run npm create aalis-plugin@latest -- --help for the usage.',
    'createPlugin.done':
      'Wrote the plugin {name} in {dir}. Next:\n  cd {dir}\n  npm install\n  npm test\nIn a deployment: npx aalis plugin add <its npm name or packed file>',
  },
});

// pluginInstaller: plugins from the registry added to and removed from the running deployment (the console's plugin
// page), with the same checks and byte-for-byte rollback as `aalis plugin add|remove`. One operation at a time; its
// progress is npm's phases, never npm's raw output (which can carry paths and registry tokens).
import type { AalisError, Locale } from '@aalis/core';
import { defineErrors, defineService, type ServiceDescriptor } from '@aalis/core';

/** Where an add or remove is: npm resolving the tree, fetching and unpacking, install scripts, then our checks. */
export type PluginInstallPhase =
  | 'resolving'
  | 'fetching'
  | 'building'
  | 'checking'
  | 'loading'
  | 'rolling-back'
  | 'finished';

export interface PluginInstallOperation {
  readonly id: string;
  readonly action: 'add' | 'remove';
  /** What was asked: an npm name (with a version or tag), or a tarball — credentials in a URL never shown. */
  readonly target: string;
  state: 'running' | 'done' | 'failed';
  phase: PluginInstallPhase;
  /** Packages npm has unpacked so far. */
  packages: number;
  /** The package added or removed, once known. */
  name?: string;
  version?: string;
  startedAt: number;
  finishedAt?: number;
  /** After an add: the plugin runs now (loaded without a restart); after a remove: it was stopped. */
  live?: boolean;
  /** A restart is still needed for the change to take effect (a new version of a package this process loaded). */
  restartNeeded?: boolean;
  /** Why it failed (coded, in the locale the operation was started with). */
  error?: AalisError;
  /** A failed operation left package.json, the lock file and node_modules/.package-lock.json as they were. */
  unchanged?: boolean;
}

/** A plugin installed into the deployment from the registry (a dependency declaring an @aalis/core range). */
export interface InstalledPluginInfo {
  name: string;
  /** As package.json says (a range, a tarball, a tag). */
  spec: string;
  version?: string;
}

export interface PluginInstallerService {
  /** The deployment's directory, or why plugins cannot be added here (not a deployment; a checkout of the repo). */
  readonly deployment: { ok: true; dir: string } | { ok: false; error: AalisError };
  /** The plugins installed from the registry, by name. */
  installed(): InstalledPluginInfo[];
  /**
   * Starts an add or a remove and returns at once; progress and the outcome go to `onChange` listeners. Throws
   * AALIS_PLUGIN_INSTALL_BUSY while another runs (here or `aalis plugin` in the same directory),
   * AALIS_PLUGIN_INSTALL_UNAVAILABLE when the host runs from no deployment, AALIS_PLUGIN_INSTALL_BAD_SPEC for a
   * target npm would read as an option or a local path, AALIS_PLUGIN_REMOVE_NOT_INSTALLED for a remove of a
   * package that is not an installed plugin.
   */
  start(action: 'add' | 'remove', target: string, options?: { locale?: Locale }): PluginInstallOperation;
  /** The running operation, else the last one (until the host restarts). */
  current(): PluginInstallOperation | undefined;
  onChange(listener: (operation: PluginInstallOperation) => void): () => void;
}

export const pluginInstaller: ServiceDescriptor<PluginInstallerService> =
  defineService<PluginInstallerService>('pluginInstaller');

export const pluginInstallErrors = defineErrors({
  AALIS_PLUGIN_INSTALL_BUSY: {
    en: 'Another plugin add or remove is running ({target}); one at a time. Wait until it has finished, then try again.',
    'zh-CN': '另一个插件的添加或移除正在进行（{target}），一次只能做一个。请等它结束后再试。',
    statusCode: 409,
  },
  AALIS_PLUGIN_INSTALL_UNAVAILABLE: {
    en: 'Plugins cannot be added here: {reason}',
    'zh-CN': '这里不能添加插件：{reason}',
    statusCode: 409,
  },
  AALIS_PLUGIN_INSTALL_BAD_SPEC: {
    en: '"{target}" is not a package npm can install from the registry: give its npm name, optionally with @version or @tag (e.g. aalis-plugin-weather or @scope/name@^1.2.0), or an https:// URL of a tarball.',
    'zh-CN':
      '「{target}」不是 npm 能从注册表安装的包：请填写它的 npm 包名，可带 @版本 或 @标签（例如 aalis-plugin-weather、@scope/name@^1.2.0），或一个 https:// 开头的 tarball 地址。',
    statusCode: 400,
  },
  AALIS_PLUGIN_REMOVE_NOT_INSTALLED: {
    en: '{name} is not a plugin installed from the registry in this deployment: nothing to remove. Installed: {installed}.',
    'zh-CN': '{name} 不是这个部署从注册表安装的插件，没有可移除的。已安装：{installed}。',
    statusCode: 404,
  },
  AALIS_PLUGIN_INSTALL_FAILED: {
    en: '{reason} Nothing was changed: the deployment is as it was before.',
    'zh-CN': '{reason}没有任何改动：部署保持原样。',
  },
  AALIS_PLUGIN_INSTALL_ROLLBACK_FAILED: {
    en: '{reason} Rolling back did not complete: {rollback}',
    'zh-CN': '{reason}回滚没有完成：{rollback}',
  },
});

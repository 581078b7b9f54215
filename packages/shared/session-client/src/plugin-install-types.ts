// What the console's plugin installer requests carry (docs/session-protocol.md 「Plugins from the registry」): add a
// plugin by its npm name, remove one, and follow the operation — npm's phases, then the outcome (running now, or why
// it failed with the deployment unchanged). Owner-only; one operation at a time.
import type { ProtocolError } from './frame-types.js';

export type PluginInstallPhaseView =
  | 'resolving'
  | 'fetching'
  | 'building'
  | 'checking'
  | 'loading'
  | 'rolling-back'
  | 'finished';

export interface PluginInstallView {
  id: string;
  action: 'add' | 'remove';
  /** What was asked (a URL without its credentials). */
  target: string;
  state: 'running' | 'done' | 'failed';
  phase: PluginInstallPhaseView;
  /** Packages npm has unpacked so far. */
  packages: number;
  /** The package added or removed, once known. */
  name?: string;
  version?: string;
  startedAt: number;
  finishedAt?: number;
  /** Done: the plugin runs now (an add) or was stopped (a remove), without a restart. */
  live?: boolean;
  /** Done, but it takes effect from the next start (a new version of a package this process already loaded). */
  restartNeeded?: boolean;
  /** Failed: why, coded, in the connection's locale; done with `live: false`: why it did not start now. */
  error?: ProtocolError;
  /** Failed: package.json, the lock file and node_modules/.package-lock.json are byte for byte as before. */
  unchanged?: boolean;
}

export interface InstalledPluginView {
  /** The npm name (the plugin's id and its section key plugins.<name>). */
  name: string;
  /** As the deployment's package.json has it. */
  spec: string;
  version?: string;
}

export interface PluginInstallRequests {
  'admin.plugins.installed': {
    params: Record<string, never>;
    result: {
      /** Plugins can be added here (the host runs from a deployment's directory). */
      available: boolean;
      /** Why not, when not. */
      unavailable?: ProtocolError;
      plugins: InstalledPluginView[];
      /** The running operation, else the last one since the host started. */
      operation?: PluginInstallView;
    };
  };
  /** Starts an add; answers at once, progress and outcome follow as `admin` frames (change `install`). */
  'admin.plugins.add': { params: { spec: string }; result: { operation: PluginInstallView } };
  'admin.plugins.remove': { params: { name: string }; result: { operation: PluginInstallView } };
}

/** To owners: an add or remove moved on (a phase, a count of packages, the outcome). */
export interface PluginInstallFrame {
  type: 'admin';
  change: 'install';
  operation: PluginInstallView;
}

export const PLUGIN_INSTALL_REQUESTS = [
  'admin.plugins.installed',
  'admin.plugins.add',
  'admin.plugins.remove',
] as const satisfies readonly (keyof PluginInstallRequests)[];

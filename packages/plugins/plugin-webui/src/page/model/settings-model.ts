// The settings panel's state for one session, generated from the session fields the server lists: grouped by
// visibility (composer fields also sit beside the composer), each with its value, source layer, note and whether
// this account may write it; select fields with dynamic options (深度思考 depends on 模型) refetch their options
// whenever a field they depend on changes, with the unsaved choice when there is one. Framework-free.
import type { ParamsOf, ResultOf, SettingOption, SettingView, WritableLayer } from '@aalis/session-client';
import { Store } from './store.js';

/** The requests the model makes (SessionClient.request, narrowed so tests can pass a small fake). */
export interface SettingsRequests {
  get(params: ParamsOf<'settings.get'>): Promise<ResultOf<'settings.get'>>;
  options(params: ParamsOf<'settings.options'>): Promise<ResultOf<'settings.options'>>;
  set(params: ParamsOf<'settings.set'>): Promise<ResultOf<'settings.set'>>;
  reset(params: ParamsOf<'settings.reset'>): Promise<ResultOf<'settings.reset'>>;
}

export interface SettingState {
  setting: SettingView;
  /** Fixed options, or the dynamic ones fetched for the current dependencies. */
  options: readonly SettingOption[];
  /** A write or reset of this field is in flight. */
  saving: boolean;
  /** The last refused write: the server's coded error, shown beside the field (the typed value stays). */
  error?: { code: string; message: string };
}

export interface SettingsSnapshot {
  sessionId: string;
  loaded: boolean;
  /** Where writes go now, and where they may go (an IM room's venue and platform layers besides the session). */
  writeLayer: WritableLayer;
  layers: readonly WritableLayer[];
  composer: readonly SettingState[];
  common: readonly SettingState[];
  advanced: readonly SettingState[];
  /** Loading the list failed. */
  error?: { code: string; message: string };
}

function codedError(error: unknown): { code: string; message: string } {
  const { code, message } = error as { code?: unknown; message?: unknown };
  return {
    code: typeof code === 'string' ? code : 'AALIS_WEBUI_CLIENT_ERROR',
    message: typeof message === 'string' ? message : String(error),
  };
}

export class SettingsModel extends Store<SettingsSnapshot> {
  private states: SettingState[] = [];
  private loaded = false;
  private error: SettingsSnapshot['error'];
  /** Bumped per options fetch of a key, so a slow answer for an older model never wins. */
  private readonly optionsGeneration = new Map<string, number>();
  private writeLayer: WritableLayer = 'session';

  constructor(
    readonly sessionId: string,
    private readonly requests: SettingsRequests,
    /** The layers writes may go to: the session's own, and for an IM room also its venue and its platform. */
    private readonly layers: readonly WritableLayer[] = ['session'],
  ) {
    super();
  }

  /** Chooses the layer the next writes and resets go to (one of `layers`). */
  setWriteLayer(layer: WritableLayer): void {
    if (!this.layers.includes(layer) || layer === this.writeLayer) return;
    this.writeLayer = layer;
    this.changed();
  }

  /** The layer parameter of a write: left out for the session layer. */
  private layerParam(): { layer?: WritableLayer } {
    return this.writeLayer === 'session' ? {} : { layer: this.writeLayer };
  }

  /** Loads (or reloads, e.g. after settings.changed) every field and the dynamic options. */
  async load(): Promise<void> {
    try {
      const { settings } = await this.requests.get({ sessionId: this.sessionId });
      const previous = new Map(this.states.map((state) => [state.setting.key, state]));
      this.states = settings.map((setting) => ({
        setting,
        options: setting.options ?? previous.get(setting.key)?.options ?? [],
        saving: false,
      }));
      this.loaded = true;
      this.error = undefined;
    } catch (error) {
      this.error = codedError(error);
    }
    this.changed();
    await Promise.all(
      this.states.filter((state) => state.setting.dynamicOptions).map((s) => this.fetchOptions(s.setting.key)),
    );
  }

  /**
   * Writes a value on the chosen layer (the session's, unless setWriteLayer chose another). Dependants' options are refetched with the new value (at once, before
   * the write is answered, so 深度思考 follows the model being picked); on a refusal the field shows the error.
   */
  async set(key: string, value: unknown): Promise<boolean> {
    this.patch(key, { saving: true, error: undefined });
    const dependants = this.refetchDependants(key, { [key]: value });
    try {
      const { setting } = await this.requests.set({ sessionId: this.sessionId, key, value, ...this.layerParam() });
      this.patch(key, { setting, saving: false });
      await dependants;
      // The server's notes of the dependants (「当前模型没有这一档…」) change with the model: read them again.
      if (this.dependantsOf(key).length > 0) await this.load();
      return true;
    } catch (error) {
      this.patch(key, { saving: false, error: codedError(error) });
      await this.refetchDependants(key, {});
      return false;
    }
  }

  /** Removes the chosen layer's value (the field then follows the layers below, or its default, or unset). */
  async reset(key: string): Promise<boolean> {
    this.patch(key, { saving: true, error: undefined });
    try {
      const { setting } = await this.requests.reset({ sessionId: this.sessionId, key, ...this.layerParam() });
      this.patch(key, { setting, saving: false });
      if (this.dependantsOf(key).length > 0) await this.load();
      return true;
    } catch (error) {
      this.patch(key, { saving: false, error: codedError(error) });
      return false;
    }
  }

  protected buildSnapshot(): SettingsSnapshot {
    const of = (visibility: SettingView['visibility']) =>
      this.states.filter((state) => state.setting.visibility === visibility);
    return {
      sessionId: this.sessionId,
      loaded: this.loaded,
      writeLayer: this.writeLayer,
      layers: this.layers,
      composer: of('composer'),
      common: of('common'),
      advanced: of('advanced'),
      error: this.error,
    };
  }

  private dependantsOf(key: string): SettingState[] {
    return this.states.filter((state) => state.setting.dynamicOptions?.dependsOn.includes(key));
  }

  private refetchDependants(key: string, values: Record<string, unknown>): Promise<void> {
    return Promise.all(this.dependantsOf(key).map((state) => this.fetchOptions(state.setting.key, values))).then(
      () => undefined,
    );
  }

  private async fetchOptions(key: string, values?: Record<string, unknown>): Promise<void> {
    const generation = (this.optionsGeneration.get(key) ?? 0) + 1;
    this.optionsGeneration.set(key, generation);
    try {
      const { options } = await this.requests.options({
        sessionId: this.sessionId,
        key,
        ...(values && Object.keys(values).length > 0 ? { values } : {}),
      });
      if (this.optionsGeneration.get(key) === generation) this.patch(key, { options });
    } catch (error) {
      if (this.optionsGeneration.get(key) === generation) this.patch(key, { options: [], error: codedError(error) });
    }
  }

  private patch(key: string, change: Partial<SettingState>): void {
    const index = this.states.findIndex((state) => state.setting.key === key);
    if (index < 0) return;
    this.states = this.states.with(index, { ...this.states[index]!, ...change });
    this.changed();
  }
}

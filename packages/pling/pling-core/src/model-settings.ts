// The model settings a person changes in a dock — the model (from an allowed list), temperature and max output —
// framework-free and observable, so every adapter renders the same state with a thin view. Each value is checked
// with the runtime's own config rules (validateAgentConfig), kept per page (localStorage by default), and read by
// the runtime at the start of every send(): a changed setting is used by the next one.
import {
  type Locale,
  type ModelOverrides,
  Observable,
  PlingError,
  type ResolvedAgentConfig,
  validateAgentConfig,
} from '@plingjs/agent';
import { type ModelSettingsTexts, modelSettingsTexts } from './model-settings-texts.js';

export type ModelSettingField = 'model' | 'temperature' | 'maxTokens';

/** The part of the Web Storage API the settings use (`localStorage` by default). */
export interface SettingsStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

export interface ModelChoice {
  id: string;
  /** Shown in the list; default the id. */
  label?: string;
}

export interface ModelSettingsOptions {
  /** The models a person may choose (provider ids); the configured model is always among them, first. */
  models?: ReadonlyArray<string | ModelChoice>;
  /** Where the choice is kept. Default `localStorage` (nothing is kept where there is none). */
  storage?: SettingsStorage;
  /** Storage key. Default `pling:model-settings:<location.pathname>`: one choice per page. */
  key?: string;
}

export interface ModelSettingsState {
  /** The allowed models, the configured one first. */
  models: ReadonlyArray<{ id: string; label: string; configured: boolean }>;
  /** What the next send() uses: the person's choice, else the configuration. */
  model: string;
  temperature: number;
  maxTokens: number;
  /** The person's choices (kept); a field left out is the configured value. */
  chosen: Readonly<ModelOverrides>;
  /** The configured values (defaults < environment < explicit config). */
  configured: Readonly<Required<ModelOverrides>>;
  /** A refused value per field: what was entered, and why (the runtime's INVALID_CONFIG message). */
  errors: Readonly<Partial<Record<ModelSettingField, { input: string; message: string }>>>;
  texts: ModelSettingsTexts;
}

export interface ModelSettingsInit extends ModelSettingsOptions {
  locale: Locale;
  /** The configuration the choices apply to: the runtime's once it exists. Read on every use. */
  config: () => ResolvedAgentConfig;
  /** Whether the host asked for the settings (createPling's `modelSettings`); docks show them when it did. */
  offered?: boolean;
}

const STORED_VERSION = 1;

export class ModelSettings extends Observable<ModelSettingsState> {
  /** Whether createPling was given `modelSettings`: docks show the panel unless told otherwise. */
  readonly offered: boolean;
  private readonly texts: ModelSettingsTexts;
  private readonly storage: SettingsStorage | undefined;
  private readonly key: string;
  private readonly choices: ReadonlyArray<{ id: string; label: string }>;
  private chosen: ModelOverrides = {};
  private errors: ModelSettingsState['errors'] = {};
  private loaded = false;

  constructor(private readonly init: ModelSettingsInit) {
    super();
    this.offered = init.offered ?? false;
    this.texts = modelSettingsTexts(init.locale);
    this.storage = init.storage ?? defaultStorage();
    this.key = init.key ?? `pling:model-settings:${pagePath()}`;
    this.choices = (init.models ?? []).map((choice) =>
      typeof choice === 'string' ? { id: choice, label: choice } : { id: choice.id, label: choice.label ?? choice.id },
    );
  }

  /** What the runtime reads at the start of every send(). */
  overrides(): ModelOverrides {
    this.load();
    return { ...this.chosen };
  }

  /** Chooses a model from the allowed list; returns whether it was accepted. */
  setModel(id: string): boolean {
    const allowed = this.allowedModels().map((choice) => choice.id);
    if (!allowed.includes(id)) {
      return this.refuse('model', id, this.texts.modelNotAllowed(id, allowed.join(this.texts.listSeparator)));
    }
    return this.accept('model', id);
  }

  /** A number, or the text of an input; refused (and reported in `errors`) outside the runtime's rules. */
  setTemperature(value: number | string): boolean {
    return this.setNumber('temperature', value);
  }

  setMaxTokens(value: number | string): boolean {
    return this.setNumber('maxTokens', value);
  }

  /** Back to the configured values; forgets the kept choice. */
  reset(): void {
    this.load();
    this.chosen = {};
    this.errors = {};
    this.save();
    this.changed();
  }

  protected buildSnapshot(): ModelSettingsState {
    this.load();
    const configured = this.configured();
    return Object.freeze({
      models: Object.freeze(this.allowedModels()),
      model: this.chosen.model ?? configured.model,
      temperature: this.chosen.temperature ?? configured.temperature,
      maxTokens: this.chosen.maxTokens ?? configured.maxTokens,
      chosen: Object.freeze({ ...this.chosen }),
      configured: Object.freeze(configured),
      errors: Object.freeze({ ...this.errors }),
      texts: this.texts,
    });
  }

  private configured(): Required<ModelOverrides> {
    const { model, temperature, maxTokens } = this.init.config();
    return { model, temperature, maxTokens };
  }

  private allowedModels() {
    const configured = this.init.config().model;
    const list = this.choices.filter((choice) => choice.id !== configured);
    const first = configured === '' ? [] : [{ id: configured, label: this.labelOf(configured), configured: true }];
    return [...first, ...list.map((choice) => ({ ...choice, configured: false }))];
  }

  private labelOf(id: string): string {
    return this.choices.find((choice) => choice.id === id)?.label ?? id;
  }

  private setNumber(field: 'temperature' | 'maxTokens', value: number | string): boolean {
    const text = String(value).trim();
    const parsed = typeof value === 'number' ? value : text === '' ? Number.NaN : Number(text);
    // The runtime's own rules, so a value accepted here is one the runtime accepts.
    const problem = checkWithConfig(this.init.config(), { [field]: Number.isFinite(parsed) ? parsed : text });
    if (problem) return this.refuse(field, text, problem);
    return this.accept(field, parsed);
  }

  private accept(field: ModelSettingField, value: string | number): boolean {
    this.load();
    const configured = this.configured()[field];
    const chosen = { ...this.chosen };
    // Choosing the configured value is not a choice: a later change of the configuration then applies.
    if (value === configured) delete chosen[field];
    else Object.assign(chosen, { [field]: value });
    this.chosen = chosen;
    const { [field]: _cleared, ...errors } = this.errors;
    this.errors = errors;
    this.save();
    this.changed();
    return true;
  }

  private refuse(field: ModelSettingField, input: string, message: string): boolean {
    this.errors = { ...this.errors, [field]: { input, message } };
    this.changed();
    return false;
  }

  /** Reads the kept choice once; a value the rules (or the list) no longer allow is dropped. */
  private load(): void {
    if (this.loaded) return;
    this.loaded = true;
    let stored: unknown;
    try {
      const text = this.storage?.getItem(this.key);
      stored = text ? JSON.parse(text) : undefined;
    } catch {
      stored = undefined;
    }
    if (typeof stored !== 'object' || stored === null || (stored as { version?: unknown }).version !== STORED_VERSION) {
      return;
    }
    const { model, temperature, maxTokens } = stored as ModelOverrides;
    const config = this.init.config();
    const allowed = this.allowedModels().map((choice) => choice.id);
    if (typeof model === 'string' && allowed.includes(model) && model !== config.model) this.chosen.model = model;
    for (const [field, value] of [
      ['temperature', temperature],
      ['maxTokens', maxTokens],
    ] as const) {
      if (typeof value === 'number' && !checkWithConfig(config, { [field]: value })) this.chosen[field] = value;
    }
  }

  private save(): void {
    try {
      if (Object.keys(this.chosen).length === 0) this.storage?.removeItem(this.key);
      else this.storage?.setItem(this.key, JSON.stringify({ version: STORED_VERSION, ...this.chosen }));
    } catch {
      // A storage that refuses (quota, privacy mode) only means the choice is not kept for the next visit.
    }
  }
}

/** The INVALID_CONFIG message for `values` over `config`, or undefined when the runtime would accept them. */
function checkWithConfig(config: ResolvedAgentConfig, values: Record<string, unknown>): string | undefined {
  try {
    validateAgentConfig({ ...config, ...values } as ResolvedAgentConfig);
    return undefined;
  } catch (error) {
    if (PlingError.isInstance(error)) return error.message;
    throw error;
  }
}

function defaultStorage(): SettingsStorage | undefined {
  try {
    return (globalThis as { localStorage?: SettingsStorage }).localStorage ?? undefined;
  } catch {
    return undefined;
  }
}

function pagePath(): string {
  return (globalThis as { location?: { pathname?: string } }).location?.pathname ?? '/';
}

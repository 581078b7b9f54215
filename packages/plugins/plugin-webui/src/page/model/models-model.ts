// The 模型/Models section's state: the configured providers (keys only as the mask), the last connection test, the
// default model (the llm service's global preference), and the actions that save, test, delete and edit model
// facts through the console requests. Every change is applied live by the host; the section reloads after it.
import type {
  ModelFactsView,
  ProviderKind,
  ProviderModelView,
  ProviderTestResult,
  ProviderView,
  SessionClient,
} from '@aalis/session-client';
import { StateStore } from './store.js';

/** What the connection form holds. An API key left empty keeps the stored one. */
export interface ProviderForm {
  baseUrl: string;
  apiKey: string;
  /** One `Name: value` per line. */
  headers: string;
}

export interface ModelsSnapshot {
  providers: readonly ProviderView[];
  revision: string;
  /** The global llm preference (`<provider>/<model>`), '' when none. */
  defaultModel: string;
  /** The model turns use now when no session chooses one. */
  currentModel?: string;
  test?: { kind: ProviderKind; running: boolean; result?: ProviderTestResult };
  busy: boolean;
  /** The last refused action, in the page's language. */
  error?: string;
  /** The last action that went through. */
  saved?: ProviderKind | 'facts' | 'default';
}

/** `Name: value` lines as a header record (lines without a colon are left out). */
export function parseHeaders(text: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim();
    if (name !== '') headers[name] = line.slice(colon + 1).trim();
  }
  return headers;
}

export function headersText(headers: Record<string, string>): string {
  return Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}`)
    .join('\n');
}

/** What the facts form holds (numbers as typed). */
export interface FactsForm {
  name: string;
  contextWindow: string;
  maxOutputTokens: string;
  vision: boolean;
  /** Level ids, comma-separated, the first the default. */
  thinking: string;
  promptPrice: string;
  completionPrice: string;
  currency: string;
}

export function factsForm(model: ProviderModelView): FactsForm {
  return {
    name: model.name === model.model ? '' : model.name,
    contextWindow: String(model.contextWindow),
    maxOutputTokens: String(model.maxOutputTokens),
    vision: model.vision,
    thinking: model.thinking
      ? [
          model.thinking.default,
          ...model.thinking.levels.map((l) => l.id).filter((id) => id !== model.thinking!.default),
        ].join(', ')
      : '',
    promptPrice: model.prices ? String(model.prices.promptPerMillion) : '',
    completionPrice: model.prices ? String(model.prices.completionPerMillion) : '',
    currency: model.prices?.currency ?? '',
  };
}

/** The form as the facts a request carries; numbers that do not parse are sent as typed (the host names the field). */
export function factsOf(form: FactsForm): ModelFactsView {
  const number = (text: string): number | undefined => {
    if (text.trim() === '') return undefined;
    const value = Number(text);
    return Number.isFinite(value) ? value : (text as unknown as number);
  };
  const levels = form.thinking
    .split(',')
    .map((id) => id.trim())
    .filter((id) => id !== '');
  const prompt = number(form.promptPrice);
  const completion = number(form.completionPrice);
  return {
    ...(form.name.trim() ? { name: form.name.trim() } : {}),
    ...(number(form.contextWindow) !== undefined ? { contextWindow: number(form.contextWindow) } : {}),
    ...(number(form.maxOutputTokens) !== undefined ? { maxOutputTokens: number(form.maxOutputTokens) } : {}),
    vision: form.vision,
    thinking: levels.length > 0 ? { levels: levels.map((id) => ({ id, name: id })), default: levels[0]! } : null,
    prices:
      prompt !== undefined || completion !== undefined
        ? {
            promptPerMillion: prompt ?? 0,
            completionPerMillion: completion ?? 0,
            ...(form.currency.trim() ? { currency: form.currency.trim() } : {}),
          }
        : null,
  };
}

export class ModelsModel extends StateStore<ModelsSnapshot> {
  constructor(
    private readonly client: SessionClient,
    private readonly describeError: (error: unknown) => string,
  ) {
    super({ providers: [], revision: '', defaultModel: '', busy: false });
  }

  async load(): Promise<void> {
    try {
      const [listed, preferences] = await Promise.all([
        this.client.request('admin.providers.list', {}),
        this.client.request('admin.preferences.get', {}),
      ]);
      this.set({
        providers: listed.providers,
        revision: listed.revision,
        defaultModel: preferences.preferences.global.llm ?? '',
        currentModel: preferences.preferences.defaultModel?.id,
      });
    } catch (error) {
      this.set({ error: this.describeError(error) });
    }
  }

  async test(kind: ProviderKind, form: ProviderForm): Promise<void> {
    this.set({ test: { kind, running: true }, error: undefined, saved: undefined });
    try {
      const result = await this.client.request('admin.providers.test', {
        kind,
        ...(form.baseUrl.trim() ? { baseUrl: form.baseUrl.trim() } : {}),
        ...(form.apiKey ? { apiKey: form.apiKey } : {}),
        ...(form.headers.trim() ? { headers: parseHeaders(form.headers) } : {}),
      });
      this.set({ test: { kind, running: false, result } });
    } catch (error) {
      this.set({ test: undefined, error: this.describeError(error) });
    }
  }

  save(kind: ProviderKind, form: ProviderForm): Promise<boolean> {
    return this.act(kind, async () => {
      await this.client.request('admin.providers.save', {
        kind,
        ...(form.baseUrl.trim() ? { baseUrl: form.baseUrl.trim() } : {}),
        ...(form.apiKey ? { apiKey: form.apiKey } : {}),
        ...(form.headers.trim() ? { headers: parseHeaders(form.headers) } : {}),
        revision: this.state.revision,
      });
    });
  }

  remove(kind: ProviderKind): Promise<boolean> {
    return this.act(kind, async () => {
      await this.client.request('admin.providers.delete', { kind, revision: this.state.revision });
    });
  }

  setDefault(model: string | null): Promise<boolean> {
    return this.act('default', async () => {
      await this.client.request('admin.preferences.set', { service: 'llm', value: model });
    });
  }

  saveFacts(kind: ProviderKind, model: string, facts: ModelFactsView | null): Promise<boolean> {
    return this.act('facts', async () => {
      await this.client.request('admin.models.save', { kind, model, facts, revision: this.state.revision });
    });
  }

  private async act(saved: NonNullable<ModelsSnapshot['saved']>, work: () => Promise<void>): Promise<boolean> {
    this.set({ busy: true, error: undefined, saved: undefined });
    try {
      await work();
      await this.load();
      this.set({ busy: false, saved });
      return true;
    } catch (error) {
      this.set({ busy: false, error: this.describeError(error) });
      // The configuration may have changed meanwhile: the next action writes against the current revision.
      await this.load();
      return false;
    }
  }
}

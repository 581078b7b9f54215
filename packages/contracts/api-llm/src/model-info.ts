// What a provider says about each model it offers: identity, limits, capabilities and thinking levels.

export interface ThinkingLevel {
  /** Sent in ChatRequest.thinkingLevel and stored in the session setting `think`. */
  id: string;
  /** Display name. */
  name: string;
}

/** The thinking levels a model offers and its default, or 'not-adjustable'. */
export type ThinkingLevels = { levels: ThinkingLevel[]; default: string } | 'not-adjustable';

export interface ModelCapabilities {
  /** Accepts tool definitions and produces tool calls. */
  tools: boolean;
  /** Accepts images in user messages. */
  vision: boolean;
}

export interface ModelInfo {
  /** `<provider instance id>/<model id>`: the id preferences, session settings and requests use. */
  id: string;
  /** The provider plugin instance id. */
  provider: string;
  /** The model id within the provider (what the provider's server calls it). */
  model: string;
  /** Display name, in the app's locale. */
  name: string;
  /** Context window in tokens (prompt and completion together). */
  contextWindow: number;
  /** The most tokens one completion may have. */
  maxOutputTokens: number;
  capabilities: ModelCapabilities;
  thinking: ThinkingLevels;
  /** Set by models that answer without any network (the offline demo model); UIs label them. */
  offline?: boolean;
}

/** `<provider instance id>/<model id>`. Instance ids may themselves contain '/', so never split a ref to parse it. */
export function modelRef({ provider, model }: { provider: string; model: string }): string {
  return `${provider}/${model}`;
}

/**
 * The level to send for a request: the requested one when the model offers it, otherwise none (the provider then
 * uses the model's default). Not-adjustable models never get one.
 */
export function effectiveThinkingLevel({
  model,
  requested,
}: {
  model: Pick<ModelInfo, 'thinking'>;
  requested: string | undefined;
}): string | undefined {
  if (requested === undefined || model.thinking === 'not-adjustable') return undefined;
  return model.thinking.levels.some((level) => level.id === requested) ? requested : undefined;
}

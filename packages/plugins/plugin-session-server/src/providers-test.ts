// admin.providers.test: tries a model endpoint (or an Anthropic key) as it would be saved — lists the models, makes
// one short call — with the provider's own code (a probe instance: no retries, short waits, no usage events), and
// says what failed (the address, DNS, a refused connection, TLS, the key, a 404 on /models, a timeout) and how to
// fix it, in the connection's locale. Nothing is saved and the running provider is not touched.
import type { LlmService } from '@aalis/api-llm';
import { AalisError } from '@aalis/core';
import type { ProviderKind, ProviderTestResult, ProviderTestStep } from '@aalis/session-client';
import { badParam, optionalString } from './params.js';
import { hostConfigOf, recordOf } from './providers-config.js';
import { providerTestErrors } from './providers-errors.js';
import { PROVIDER_SLOTS, readKind } from './providers-requests.js';
import type { Handler } from './request-handler.js';
import type { ServerDeps } from './server-deps.js';

/** Tests running at once (each holds outbound connections); more are refused until one ends. */
const MAX_CONCURRENT_TESTS = 3;
/** The whole test (listing and the call) ends by then at the latest. */
const TEST_DEADLINE_MS = 45_000;
const REPLY_CHARS = 200;

let running = 0;

interface ProbeProvider {
  service: LlmService;
  listModels(): Promise<string[]>;
  close(): void;
}

export const providersTest: Handler<'admin.providers.test'> = async (deps, _account, params, { type }) => {
  const kind = readKind(type, params);
  const baseUrl = optionalString(type, params, 'baseUrl', 2000)?.trim();
  const apiKey = optionalString(type, params, 'apiKey', 4000);
  const model = optionalString(type, params, 'model', 300);
  const headers = recordOf(params.headers);
  if (params.headers !== undefined && !headers) badParam(type, 'headers', 'object', params.headers);
  if (running >= MAX_CONCURRENT_TESTS) throw providerTestErrors.AALIS_PROVIDER_TEST_BUSY({ max: MAX_CONCURRENT_TESTS });
  running += 1;
  try {
    const section = await sectionToTest(deps, kind, { baseUrl, apiKey, headers, model });
    return await runTest(deps, kind, section, model);
  } finally {
    running -= 1;
  }
};

/** The stored section with the form's values over it; the mask (or nothing) keeps a stored secret. */
async function sectionToTest(
  deps: ServerDeps,
  kind: ProviderKind,
  form: { baseUrl?: string; apiKey?: string; headers?: Record<string, unknown>; model?: string },
): Promise<Record<string, unknown>> {
  const service = hostConfigOf(deps);
  const root = await service.read([]);
  const config = recordOf(root.value) ?? {};
  const stored = { ...(recordOf(recordOf(config.plugins)?.[PROVIDER_SLOTS[kind].alias]) ?? {}) };
  if (kind === 'openai') {
    const short = recordOf(config.llm) ?? {};
    if (typeof short.baseUrl === 'string' && short.baseUrl !== '') stored.baseUrl = short.baseUrl;
    if (typeof short.apiKey === 'string' && short.apiKey !== '') stored.apiKey = short.apiKey;
  }
  const { SECRET_MASK } = await import('@aalis/api-host-config');
  if (form.baseUrl) stored.baseUrl = form.baseUrl;
  if (form.apiKey !== undefined && form.apiKey !== SECRET_MASK) {
    if (form.apiKey === '') delete stored.apiKey;
    else stored.apiKey = form.apiKey;
  }
  if (form.headers) {
    const previous = recordOf(stored.headers) ?? {};
    stored.headers = Object.fromEntries(
      Object.entries(form.headers).map(([name, value]) => [name, value === SECRET_MASK ? previous[name] : value]),
    );
  }
  if (form.model && kind === 'openai') {
    const models = Array.isArray(stored.models) ? stored.models : [];
    if (!models.some((entry) => recordOf(entry)?.id === form.model)) stored.models = [...models, { id: form.model }];
  }
  return stored;
}

async function runTest(
  deps: ServerDeps,
  kind: ProviderKind,
  section: Record<string, unknown>,
  wanted: string | undefined,
): Promise<ProviderTestResult> {
  const started = performance.now();
  const host = hostOf(section.baseUrl);
  const finish = (result: Omit<ProviderTestResult, 'ms'>): ProviderTestResult => ({
    ...result,
    ms: Math.round(performance.now() - started),
  });
  const failed = (step: ProviderTestStep, error: AalisError, cause?: unknown, models: string[] = []) =>
    finish({ ok: false, models, problem: problemOf(deps, step, error, cause) });
  if (kind === 'openai' && (typeof section.baseUrl !== 'string' || section.baseUrl === '')) {
    return failed('address', providerTestErrors.AALIS_PROVIDER_TEST_ADDRESS({ detail: 'baseUrl' }));
  }
  let probe: ProbeProvider;
  try {
    const module =
      kind === 'openai'
        ? await import('@aalis/plugin-llm-openai/probe-provider')
        : await import('@aalis/plugin-llm-anthropic/probe-provider');
    probe = module.openProbeProvider({
      section,
      logger: deps.log,
      i18n: { locale: deps.locale, t: (text) => deps.translate(text) },
    });
  } catch (error) {
    return failed('address', diagnose('address', error, host), error);
  }
  const deadline = AbortSignal.timeout(TEST_DEADLINE_MS);
  try {
    let models: string[];
    try {
      models = await probe.listModels();
    } catch (error) {
      return failed('models', diagnose('models', error, host), error);
    }
    const model = wanted ?? models[0];
    if (!model) return failed('models', providerTestErrors.AALIS_PROVIDER_TEST_NO_MODELS(), undefined, models);
    let reply = '';
    try {
      const stream = probe.service.chatStream(
        {
          model: `${PROVIDER_SLOTS[kind].instance}/${model}`,
          messages: [{ role: 'user', content: 'Reply with the single word OK.' }],
          maxOutputTokens: 16,
          sessionId: '',
          purpose: 'conversation',
        },
        { signal: deadline },
      );
      for await (const event of stream) {
        if (event.type === 'text-delta' && reply.length < REPLY_CHARS) reply += event.text;
        if (event.type === 'response' && reply === '') reply = event.response.content;
      }
    } catch (error) {
      return failed('call', diagnose('call', error, host, model), error, models);
    }
    return finish({ ok: true, models, model, reply: reply.trim().slice(0, REPLY_CHARS) });
  } finally {
    probe.close();
  }
}

/** The coded problem for what the probe threw, by the llm service's codes and the socket's own code. */
function diagnose(step: ProviderTestStep, error: unknown, host: string, model?: string): AalisError {
  if (!AalisError.isInstance(error)) return providerTestErrors.AALIS_PROVIDER_TEST_FAILED();
  const details = error.details;
  switch (error.code) {
    case 'AALIS_LLM_NETWORK': {
      const socket = String(details.socketCode ?? '');
      const reason = String(details.reason ?? '');
      if (/^(ENOTFOUND|EAI_AGAIN|EAI_NONAME|EAI_FAIL)$/.test(socket))
        return providerTestErrors.AALIS_PROVIDER_TEST_DNS({ host });
      if (socket === 'ECONNREFUSED') return providerTestErrors.AALIS_PROVIDER_TEST_REFUSED({ host });
      if (/CERT|SSL|TLS|EPROTO|SELF_SIGNED|UNABLE_TO_VERIFY/i.test(`${socket} ${reason}`)) {
        return providerTestErrors.AALIS_PROVIDER_TEST_TLS({ host });
      }
      return providerTestErrors.AALIS_PROVIDER_TEST_UNREACHABLE({ host });
    }
    case 'AALIS_LLM_AUTH':
      return providerTestErrors.AALIS_PROVIDER_TEST_AUTH({ status: String(details.status ?? error.statusCode ?? '') });
    case 'AALIS_LLM_ENDPOINT_NOT_FOUND':
      return providerTestErrors.AALIS_PROVIDER_TEST_NOT_FOUND({ url: String(details.url ?? host) });
    case 'AALIS_LLM_TIMEOUT':
      return providerTestErrors.AALIS_PROVIDER_TEST_TIMEOUT({ host, seconds: Math.round(Number(details.ms) / 1000) });
    case 'AALIS_LLM_MODEL_NOT_FOUND':
      return providerTestErrors.AALIS_PROVIDER_TEST_MODEL({
        model: model ?? '?',
        available: String(details.available ?? '') || '-',
      });
    case 'AALIS_CONFIG_INVALID':
      return providerTestErrors.AALIS_PROVIDER_TEST_ADDRESS({
        detail: String(details.expected ?? details.field ?? ''),
      });
    default:
      if (step === 'address') return providerTestErrors.AALIS_PROVIDER_TEST_ADDRESS({ detail: error.code });
      return step === 'call'
        ? providerTestErrors.AALIS_PROVIDER_TEST_CALL({ model: model ?? '?' })
        : providerTestErrors.AALIS_PROVIDER_TEST_FAILED();
  }
}

function problemOf(
  deps: ServerDeps,
  step: ProviderTestStep,
  error: AalisError,
  cause: unknown,
): NonNullable<ProviderTestResult['problem']> {
  // The underlying error's words (already free of the key: the provider redacts its secrets) in the reader's locale.
  const said = AalisError.isInstance(cause)
    ? cause.localized(deps.locale)
    : cause instanceof Error
      ? cause.message
      : undefined;
  return {
    step,
    code: error.code,
    message: error.localized(deps.locale),
    ...(said ? { cause: said.slice(0, 1000) } : {}),
  };
}

function hostOf(baseUrl: unknown): string {
  try {
    return new URL(String(baseUrl)).host || String(baseUrl);
  } catch {
    return typeof baseUrl === 'string' ? baseUrl.slice(0, 200) : 'api.anthropic.com';
  }
}

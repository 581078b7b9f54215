// The aalis.config.yaml written on the first run: the defaults, with comments saying what each key does.
export const CONFIG_FILE_NAME = 'aalis.config.yaml';

export const DEFAULT_CONFIG_FILE = `# Aalis configuration, written on the first run with the defaults. Every key is optional.
# Environment variables override this file: AALIS_LLM_BASE_URL, AALIS_LLM_API_KEY, AALIS_LLM_MODEL,
# AALIS_DATA_DIR, AALIS_DATABASE_URL, AALIS_LOG_LEVEL, AALIS_LOCALE, AALIS_WEBUI_HOST, AALIS_WEBUI_PORT.
# Every key is described in docs/configuration.md.

# Language of the texts she and the host show: zh-CN or en.
locale: zh-CN

# The database, personas, logs and persisted preferences (relative to this file).
dataDir: ./data

# The model: any OpenAI-compatible endpoint (hosted APIs, Ollama, vLLM, llama.cpp server).
# With baseUrl empty she answers with the offline demo model.
llm:
  baseUrl: ""        # e.g. https://api.openai.com/v1 or http://127.0.0.1:11434/v1 (Ollama)
  apiKey: ""         # sent as a Bearer token, never logged
  model: ""          # e.g. gpt-4o-mini or qwen3:8b; empty = the first model the server lists
  # contextWindow: 128000
  # maxOutputTokens: 8192

# logLevel: info       # the file log, <dataDir>/logs/aalis.log (rotated)
# consoleLogLevel: warn
# timeZone: ""         # time annotations the model reads; empty = this machine's zone
# owners:              # accounts above every level; the terminal user is always one
#   - { platform: webui, userId: owner }
# servicePreferences: { llm: openai/gpt-4o-mini }

# Plugin sections, by short name (or package name); false leaves a plugin out.
plugins:
  agent:
    systemPrompt: ""   # behaviour rules added after the persona's prompt
  # cli:
  #   reasoning: collapsed   # collapsed | expanded | hidden
  #   usageAfterTurn: false
  # memory-summary: false
`;

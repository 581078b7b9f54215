// @aalis/plugin-llm-openai: OpenAI-compatible llm provider over HTTP with SSE streaming.
export {};

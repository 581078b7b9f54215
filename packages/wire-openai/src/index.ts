// @aalis/wire-openai: OpenAI Chat Completions wire protocol: request/response types, message conversion, SSE parsing, stream assembly. Runs in browsers and Node.
export {};

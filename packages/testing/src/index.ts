// @aalis/testing: Test-only helpers: an OpenAI-compatible scripted HTTP model server and App boot helpers. Never imported by product code.
export {};

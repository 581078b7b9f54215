// @aalis/api-hooks: Contract of the hooks service: onion middleware keyed by HookContextMap.
export {};

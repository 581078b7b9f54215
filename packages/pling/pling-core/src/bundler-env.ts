// The environment a bundler compiles into the page: Vite replaces `import.meta.env` (in this module too, when it
// is a dependency, in the dev server and in a production build) with the app's variables — `VITE_AGENT_*` from
// `.env`, `.env.local`, `.env.[mode]` in its envDir. createPling reads it when no `agent.env` is given, so the
// spec's examples work as written. Elsewhere (no bundler, webpack, Node) `import.meta.env` is undefined and the
// host passes `agent.env` itself.
import type { AgentEnv } from '@plingjs/agent';

export function bundlerEnv(): AgentEnv | undefined {
  // `import.meta.env` must stay spelled out in full: that exact text is what Vite rewrites.
  const env: unknown = (import.meta as ImportMeta & { env?: unknown }).env;
  return typeof env === 'object' && env !== null ? (env as AgentEnv) : undefined;
}

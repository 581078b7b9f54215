// Dev server for the Vue 3 recipe: `npm run example vue3` (scripts/example.mjs runs `vite --config` on this file).
// Workspace packages load from their TypeScript sources (the 'source' export condition), and `/v1` is proxied to
// AGENT_UPSTREAM, an OpenAI-compatible base URL, so the page uses the relative baseUrl '/v1' without CORS. The API
// key, if the upstream needs one, is added here, server-side: it never reaches the page.
import { fileURLToPath } from 'node:url';
import { defaultClientConditions, defineConfig, type ProxyOptions } from 'vite';

const upstream = process.env.AGENT_UPSTREAM?.replace(/\/+$/, '');
const apiKey = process.env.AGENT_API_KEY;

const proxy: Record<string, ProxyOptions> = {};
if (upstream) {
  proxy['/v1'] = {
    target: upstream,
    changeOrigin: true,
    // '/v1/chat/completions' → AGENT_UPSTREAM + '/chat/completions'.
    rewrite: (path) => path.replace(/^\/v1/, ''),
    ...(apiKey && { headers: { Authorization: `Bearer ${apiKey}` } }),
    // Vite's proxy pipes the answer, and a pipe does not end the page's response when the upstream cuts it: the
    // page would wait on a silent stream. Cutting it too lets the dock show MODEL_STREAM_ERROR (or retry).
    configure: (server) => {
      server.on('proxyRes', (answer, _request, response) => {
        answer.on('close', () => {
          if (!answer.complete) response.destroy();
        });
      });
    },
  };
} else {
  console.warn('AGENT_UPSTREAM is not set: requests to /v1 are not proxied (see examples/recipes/vue3/README.md).');
}

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  resolve: {
    // Setting conditions replaces Vite's defaults, so they follow 'source'.
    conditions: ['source', ...defaultClientConditions],
  },
  define: {
    // Vue 3's esm-bundler build expects its feature flags to be defined.
    __VUE_OPTIONS_API__: 'true',
    __VUE_PROD_DEVTOOLS__: 'false',
    __VUE_PROD_HYDRATION_MISMATCH_DETAILS__: 'false',
  },
  server: { proxy },
});

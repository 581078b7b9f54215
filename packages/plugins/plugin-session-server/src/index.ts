// @aalis/plugin-session-server: the session server (docs/session-protocol.md) — HTTP + WebSocket in the host, the
// one-time link login, the WebUI page; and the link helpers `aalis webui-link` uses from another process.
export {
  ACCOUNT_ID_PATTERN,
  loadOrCreateSecret,
  loginLink,
  mintLinkToken,
  processAlive,
  readServerAddress,
  type ServerAddress,
  verifyLinkToken,
} from './login-link.js';
export { type ServerConfig, serverConfigSchema } from './server-config.js';
export { serverErrors } from './server-errors.js';
export {
  createSessionServerPlugin,
  SESSION_SERVER_PLUGIN,
  type SessionServerHandle,
  type SessionServerOptions,
} from './session-server-plugin.js';

// `aalis webui-link [--account <id>]`: prints a fresh one-time WebUI login link from another process. The link is
// signed with the login secret in <dataDir>/webui/login-secret (the running server checks it), and addressed to the
// running server as it recorded itself in <dataDir>/webui/server.json (else to the configured address).
import {
  loadOrCreateSecret,
  loginLink,
  mintLinkToken,
  processAlive,
  readServerAddress,
  serverConfigSchema,
} from '@aalis/plugin-session-server';
import { loadCommandConfig } from './command-config.js';
import './runtime-texts.js';

export interface WebuiLinkOptions {
  cwd: string;
  env: Record<string, string | undefined>;
  configFile?: string;
  account?: string;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

/** Prints the link on standard output (notes on standard error); resolves with the exit code. */
export async function printWebuiLink(options: WebuiLinkOptions): Promise<number> {
  const loaded = await loadCommandConfig(options);
  if (loaded === 2) return 2;
  const { config, t } = loaded;
  const planned = config.plugins.find((plugin) => plugin.slot.alias === 'session-server');
  if (!planned) {
    options.stderr.write(`${t('runtime.webuiLink.disabled')}\n`);
    return 1;
  }
  const server = serverConfigSchema.validate(planned.section).value;
  const account = options.account ?? server.ownerUserId;
  if (account !== server.ownerUserId && !server.accounts.some((entry) => entry.userId === account)) {
    options.stderr.write(`${t('runtime.webuiLink.unknownAccount', { account, owner: server.ownerUserId })}\n`);
    return 1;
  }
  const secret = loadOrCreateSecret(config.dataDir);
  const address = readServerAddress(config.dataDir);
  const running = address !== undefined && processAlive(address.pid);
  const host = server.host === '0.0.0.0' || server.host === '::' ? '127.0.0.1' : server.host;
  const url = running ? address.url : `http://${host.includes(':') ? `[${host}]` : host}:${server.port}`;
  const minutes = server.linkTtlMinutes;
  options.stderr.write(
    `${running ? t('runtime.webuiLink.running', { minutes }) : t('runtime.webuiLink.notRunning', { url, minutes })}\n`,
  );
  options.stdout.write(`${loginLink(url, mintLinkToken({ secret, userId: account }))}\n`);
  return 0;
}

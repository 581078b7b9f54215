// A local npm registry for the install-from-registry check: Verdaccio (a maintained registry) in a child process on
// 127.0.0.1, its storage and htpasswd in a directory of the caller's, a throwaway user made through the registry's
// own API (npm's `adduser` request), and an npm user configuration that names only this registry. The packages this
// repository publishes (and the check's own plugins) are served from the local storage only — never merged with a
// package of the same name on the public registry — and everything else comes through the uplink to npm's registry.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';

export interface LocalRegistry {
  /** http://127.0.0.1:<port>/ */
  url: string;
  /** An npm user configuration naming only this registry, with the throwaway user's token (npm_config_userconfig). */
  userconfig: string;
  /** The registry's log so far (its standard output and error). */
  log(): string;
  stop(): Promise<void>;
}

export interface LocalRegistryOptions {
  /** Package-name patterns served from the local storage only (Verdaccio's `packages` keys, e.g. '@aalis/*'). */
  local: string[];
  /** Seconds to wait for the registry to answer. */
  startTimeoutSeconds?: number;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

function verdaccioBin(): string {
  const require = createRequire(import.meta.url);
  const manifestPath = require.resolve('verdaccio/package.json');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { bin: string | Record<string, string> };
  const bin = typeof manifest.bin === 'string' ? manifest.bin : manifest.bin.verdaccio!;
  return join(dirname(manifestPath), bin);
}

/** The machine's own npm settings (e.g. nodedir for native builds) without any registry or credential line. */
function machineNpmSettings(): string {
  const file = join(homedir(), '.npmrc');
  if (!existsSync(file)) return '';
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '' && !/registry|_auth|_password|username|email|certfile|keyfile/i.test(line))
    .map((line) => `${line}\n`)
    .join('');
}

/**
 * The registry this machine's npm uses (npm run passes it as npm_config_registry), so the uplink goes where a user's
 * npm would (a mirror on a CI machine), and the proxy npm is told to use, if any.
 */
function uplinkSettings(): string[] {
  const configured = process.env.npm_config_registry;
  const url = configured && /^https?:\/\//.test(configured) ? configured : 'https://registry.npmjs.org/';
  const proxy = process.env.npm_config_https_proxy || process.env.HTTPS_PROXY || process.env.https_proxy;
  return [
    `    url: ${JSON.stringify(url.endsWith('/') ? url : `${url}/`)}`,
    ...(proxy ? [`    https_proxy: ${JSON.stringify(proxy)}`] : []),
  ];
}

export async function startLocalRegistry(dir: string, options: LocalRegistryOptions): Promise<LocalRegistry> {
  mkdirSync(join(dir, 'storage'), { recursive: true });
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/`;
  const access = '    access: $all\n    publish: $authenticated\n    unpublish: $authenticated\n';
  const config = [
    `storage: ${JSON.stringify(join(dir, 'storage'))}`,
    'auth:',
    '  htpasswd:',
    `    file: ${JSON.stringify(join(dir, 'htpasswd'))}`,
    '    max_users: 10',
    // The throwaway user's password is hashed with bcrypt's lowest cost: at the default each request that carries a
    // legacy token checked it again (~0.25 s of CPU per published package).
    '    rounds: 4',
    // Tokens are signed JWTs, checked without the password hash.
    'security:',
    '  api:',
    '    jwt:',
    '      sign:',
    '        expiresIn: 1d',
    'uplinks:',
    '  npmjs:',
    ...uplinkSettings(),
    '    timeout: 60s',
    '    maxage: 30m',
    'packages:',
    ...options.local.map((pattern) => `  ${JSON.stringify(pattern)}:\n${access}`),
    `  '**':\n${access}    proxy: npmjs`,
    // Tarballs of the bundled packages (the WebUI's page) are several megabytes.
    'max_body_size: 200mb',
    'server:',
    '  keepAliveTimeout: 60',
    'log: { type: stdout, format: pretty, level: warn }',
    '',
  ].join('\n');
  const configFile = join(dir, 'config.yaml');
  writeFileSync(configFile, config);
  const child: ChildProcess = spawn(
    process.execPath,
    [verdaccioBin(), '--config', configFile, '--listen', `127.0.0.1:${port}`],
    {
      cwd: dir,
      env: { ...process.env, NODE_OPTIONS: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  const keep = (chunk: Buffer) => {
    // Bounded: the last 64 KiB is what a failure report needs.
    output = (output + chunk.toString()).slice(-65_536);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  };
  try {
    const deadline = Date.now() + (options.startTimeoutSeconds ?? 60) * 1000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`verdaccio exited (${child.exitCode}):\n${output}`);
      const ping = await fetch(`${url}-/ping`).catch(() => undefined);
      if (ping?.ok) break;
      if (Date.now() > deadline) throw new Error(`verdaccio did not answer on ${url}:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
    // npm's adduser request: a new user in the registry's htpasswd, answered with a token.
    const name = 'aalis-e2e';
    const added = await fetch(`${url}-/user/org.couchdb.user:${name}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name, password: `e2e-${port}-${Date.now()}`, type: 'user', roles: [] }),
    });
    const body = (await added.json()) as { token?: string };
    if (!added.ok || !body.token)
      throw new Error(`the registry made no user (${added.status}): ${JSON.stringify(body)}`);
    const userconfig = join(dir, 'npmrc');
    const host = url.replace(/^http:/, '');
    writeFileSync(
      userconfig,
      `${machineNpmSettings()}registry=${url}\n${host}:_authToken=${body.token}\nupdate-notifier=false\nfund=false\naudit=false\n`,
      { mode: 0o600 },
    );
    return { url, userconfig, log: () => output, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

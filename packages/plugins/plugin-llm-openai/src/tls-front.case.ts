// Test helper (not shipped): a self-signed certificate made with the openssl CLI, and a TLS front on 127.0.0.1
// that decrypts and pipes each connection to a plain HTTP server (the scripted model server), so the whole
// scripted server is reachable as https://127.0.0.1:<port>/v1.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { type AddressInfo, connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:tls';

export const hasOpenssl = spawnSync('openssl', ['version'], { stdio: 'ignore' }).status === 0;

export interface SelfSigned {
  keyFile: string;
  certFile: string;
  key: string;
  cert: string;
}

/** A fresh key and self-signed certificate for 127.0.0.1 and localhost, in a temporary directory. */
export function createSelfSigned(): SelfSigned {
  const dir = mkdtempSync(join(tmpdir(), 'aalis-tls-'));
  const keyFile = join(dir, 'key.pem');
  const certFile = join(dir, 'cert.pem');
  execFileSync(
    'openssl',
    [
      ...['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'],
      ...['-keyout', keyFile, '-out', certFile, '-days', '2', '-subj', '/CN=aalis test server'],
      ...['-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost'],
    ],
    { stdio: 'ignore' },
  );
  return { keyFile, certFile, key: readFileSync(keyFile, 'utf8'), cert: readFileSync(certFile, 'utf8') };
}

export interface TlsFront {
  /** https://127.0.0.1:<port> followed by the target's path, e.g. https://127.0.0.1:4443/v1 */
  readonly url: string;
  /** TLS connections accepted (handshakes that succeeded). */
  connections(): number;
  close(): Promise<void>;
}

export async function startTlsFront({ target, key, cert }: { target: string; key: string; cert: string }) {
  const upstream = new URL(target);
  const sockets = new Set<Socket>();
  let accepted = 0;
  const server = createServer({ key, cert }, (socket) => {
    accepted++;
    const backend = connect(Number(upstream.port), upstream.hostname);
    for (const each of [socket, backend]) {
      sockets.add(each);
      each.once('close', () => sockets.delete(each));
      each.on('error', () => each.destroy());
    }
    socket.pipe(backend).pipe(socket);
    socket.once('close', () => backend.destroy());
    backend.once('close', () => socket.destroy());
  });
  server.on('tlsClientError', () => {}); // an untrusting client hangs up during the handshake
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const front: TlsFront = {
    url: `https://127.0.0.1:${port}${upstream.pathname}`,
    connections: () => accepted,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
  return front;
}

// Starts bench/model-server.ts as a child process and talks to it: its URL, and the request bodies it received.
import { type ChildProcess, fork } from 'node:child_process';
import { join } from 'node:path';

export interface ModelServer {
  readonly url: string;
  /** The chat request bodies received since the last take (parsed), and the messages of any it rejected. */
  take(): Promise<{ bodies: Array<Record<string, unknown>>; rejected: string[] }>;
  close(): Promise<void>;
}

export async function startModelServer(): Promise<ModelServer> {
  const child: ChildProcess = fork(join(import.meta.dirname, 'model-server.ts'), [], {
    execArgv: ['--conditions=source', '--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const next = <T>(): Promise<T> =>
    new Promise((resolve, reject) => {
      const onExit = (code: number | null) => reject(new Error(`the model server exited (${code})`));
      child.once('exit', onExit);
      child.once('message', (message) => {
        child.off('exit', onExit);
        resolve(message as T);
      });
    });
  const { url } = await next<{ url: string }>();
  return {
    url,
    take: () => {
      const answer = next<{ bodies: Array<Record<string, unknown>>; rejected: string[] }>();
      child.send('take');
      return answer;
    },
    close: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.disconnect();
      }),
  };
}

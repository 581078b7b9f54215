// Publishes every public workspace package (what `npm publish` uploads: the built dist/, see @aalis/release's pack
// check) to a registry, as a release would: one `npm publish` per group of workspaces, prerelease versions under their
// prerelease name as the dist-tag (npm refuses a prerelease without --tag, and `latest` stays the release's).
import { spawn } from 'node:child_process';
import { type PublishedPackage, publicWorkspaces } from './public-workspaces.case.js';

export interface PublishResult {
  packages: PublishedPackage[];
  /** npm's warnings (`npm warn` lines): a package.json npm had to correct, a file it left out. */
  warnings: string[];
}

/** Publishes in `parallel` npm processes; rejects with npm's output when one fails. */
export async function publishWorkspaces(
  root: string,
  env: NodeJS.ProcessEnv,
  { parallel = 2 }: { parallel?: number } = {},
): Promise<PublishResult> {
  const packages = publicWorkspaces(root);
  const groups: string[][] = [];
  for (const tag of new Set(packages.map((entry) => entry.tag))) {
    const names = packages.filter((entry) => entry.tag === tag).map((entry) => entry.name);
    const size = Math.ceil(names.length / parallel);
    for (let start = 0; start < names.length; start += size) groups.push([tag, ...names.slice(start, start + size)]);
  }
  const outputs = await Promise.all(
    groups.map(
      ([tag, ...names]) =>
        new Promise<string>((resolve, reject) => {
          const args = ['publish', '--ignore-scripts', '--tag', tag!, ...names.flatMap((name) => ['-w', name])];
          const child = spawn('npm', args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
          let output = '';
          child.stdout.on('data', (chunk: Buffer) => {
            output += chunk.toString();
          });
          child.stderr.on('data', (chunk: Buffer) => {
            output += chunk.toString();
          });
          child.on('error', reject);
          child.on('close', (code) =>
            code === 0 ? resolve(output) : reject(new Error(`npm ${args.join(' ')} exited ${code}:\n${output}`)),
          );
        }),
    ),
  );
  const warnings = outputs.flatMap((output) => output.split('\n').filter((line) => /^npm warn/i.test(line)));
  return { packages, warnings };
}

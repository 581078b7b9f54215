// Writes a new deployment's files into its directory and installs its dependencies.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AalisError, textRef } from '@aalis/core';
import { configText, manifest, type ProjectOptions, readmeText } from './templates.js';

/** Writes package.json, aalis.config.yaml (readable by its owner only: it may hold keys), README.md and .gitignore. */
export function writeProject(dir: string, options: ProjectOptions): void {
  if (existsSync(dir) && readdirSync(dir).length > 0) {
    throw new AalisError('CREATE_AALIS_NOT_EMPTY', textRef('create.error.notEmpty', { dir }));
  }
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify(manifest(options), null, 2)}\n`);
  writeFileSync(join(dir, 'aalis.config.yaml'), configText(options), { mode: 0o600 });
  writeFileSync(join(dir, 'README.md'), readmeText(options));
  writeFileSync(join(dir, '.gitignore'), 'node_modules/\ndata/\n');
}

/** Runs `npm install` in the directory, its output on this process's; resolves with npm's exit code. */
export function installProject(dir: string, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['install', '--no-fund'], {
      cwd: dir,
      env,
      stdio: 'inherit',
    });
    child.on('error', () => resolve(127));
    child.on('close', (code) => resolve(code ?? 1));
  });
}

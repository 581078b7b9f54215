// The public workspace packages (what a release publishes) and the dist-tag each goes under: `latest`, or for a
// prerelease its name (npm refuses to publish a prerelease without --tag, and `latest` stays the release's).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageDirs } from '../../../../scripts/package-dirs.mjs';

export interface PublishedPackage {
  name: string;
  version: string;
  tag: string;
}

/** The dist-tag a version is published under: `latest`, or a prerelease's name (0.1.0-alpha.2 → alpha). */
export function distTagOf(version: string): string {
  const prerelease = /^\d+\.\d+\.\d+-([a-z][a-z-]*)/i.exec(version);
  if (prerelease) return prerelease[1]!.toLowerCase();
  // A numeric prerelease (1.0.0-0) has no name: npm still refuses it without a tag.
  return /^\d+\.\d+\.\d+-/.test(version) ? 'next' : 'latest';
}

/** The public workspace packages, each with the dist-tag it is published under. */
export function publicWorkspaces(root: string): PublishedPackage[] {
  const found: PublishedPackage[] = [];
  for (const { path } of packageDirs(root)) {
    const manifest = JSON.parse(readFileSync(join(path, 'package.json'), 'utf8')) as {
      name: string;
      version: string;
      private?: boolean;
    };
    if (manifest.private) continue;
    found.push({ name: manifest.name, version: manifest.version, tag: distTagOf(manifest.version) });
  }
  return found;
}

// Workflow files: <dataDir>/workflows/<name>.yaml, written whole (a temporary file renamed over the old one) so a
// reader never sees half a file.
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { WORKFLOW_NAME_PATTERN } from '@aalis/api-workflow';

/** A workflow file larger than this is refused (a workflow is a page of YAML, not a data set). */
export const MAX_WORKFLOW_BYTES = 256 * 1024;
/** At most this many workflow files are listed. */
export const MAX_WORKFLOWS = 500;

export class WorkflowFiles {
  constructor(readonly dir: string) {}

  private file(name: string): string {
    return join(this.dir, `${name}.yaml`);
  }

  async names(): Promise<string[]> {
    let entries: string[];
    try {
      entries = await readdir(this.dir);
    } catch {
      return [];
    }
    return entries
      .filter((entry) => entry.endsWith('.yaml'))
      .map((entry) => entry.slice(0, -'.yaml'.length))
      .filter((name) => WORKFLOW_NAME_PATTERN.test(name))
      .sort()
      .slice(0, MAX_WORKFLOWS);
  }

  async read(name: string): Promise<string | undefined> {
    if (!WORKFLOW_NAME_PATTERN.test(name)) return undefined;
    try {
      const info = await stat(this.file(name));
      if (info.size > MAX_WORKFLOW_BYTES) return undefined;
      return await readFile(this.file(name), 'utf8');
    } catch {
      return undefined;
    }
  }

  async write(name: string, text: string): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    const temporary = join(this.dir, `.${name}.${process.pid}.tmp`);
    await writeFile(temporary, text, 'utf8');
    await rename(temporary, this.file(name));
  }

  async remove(name: string): Promise<boolean> {
    if (!WORKFLOW_NAME_PATTERN.test(name)) return false;
    try {
      await rm(this.file(name));
      return true;
    } catch {
      return false;
    }
  }
}

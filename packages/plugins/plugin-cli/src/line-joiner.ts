// Multi-line input: a line ending in a backslash continues on the next one (as in shells); the message is the
// lines joined with newlines, the backslashes removed.

export class LineJoiner {
  private pending: string[] = [];

  /** Whether an unfinished message is waiting for its next line. */
  get continuing(): boolean {
    return this.pending.length > 0;
  }

  /** Takes one typed line; returns the whole message once a line does not end in a backslash. */
  push(line: string): string | undefined {
    if (line.endsWith('\\')) {
      this.pending.push(line.slice(0, -1));
      return undefined;
    }
    const message = [...this.pending, line].join('\n');
    this.pending = [];
    return message;
  }

  /**
   * The input ended: the unfinished message (its lines so far, the last one's backslash removed, as in a shell),
   * or undefined when none waits.
   */
  flush(): string | undefined {
    if (this.pending.length === 0) return undefined;
    const message = this.pending.join('\n');
    this.pending = [];
    return message;
  }

  /** Drops an unfinished message (Ctrl-C); returns whether there was one. */
  reset(): boolean {
    const had = this.pending.length > 0;
    this.pending = [];
    return had;
  }
}

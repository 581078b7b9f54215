// What is wrong with a workflow's YAML, each problem pointing at the line that holds it.

export interface WorkflowProblem {
  /** The key path of the value (e.g. ['nodes', 2, 'needs', 0]); [] for the whole file. */
  readonly path: readonly (string | number)[];
  /** 1-based line and column in the YAML text (1:1 when the value has no place, such as a missing key). */
  readonly line: number;
  readonly column: number;
  /** The problem in the reader's language, saying how to fix it. */
  readonly message: string;
}

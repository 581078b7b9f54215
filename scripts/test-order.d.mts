export declare const DURATIONS_FILE: string;
export declare function committedDurations(file?: string): Map<string, number>;
export declare function longestFirst<T>(
  files: readonly T[],
  durationOf: (file: T) => number | undefined,
  sizeOf: (file: T) => number,
): T[];

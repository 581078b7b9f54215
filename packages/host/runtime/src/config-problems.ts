// Problems found in the configuration, each with where it is (file line and column, or the environment variable)
// and what is wrong; rendered together as one message.
import { type Locale, textRef, translate } from '@aalis/core';
import { runtimeErrors } from './runtime-errors.js';

export type ProblemSource = { file: string; line?: number; column?: number } | { variable: string };

export type ConfigProblem =
  | { kind: 'syntax'; source: ProblemSource; reason: string }
  | { kind: 'issue'; source: ProblemSource; path: string; expected: string; received: string }
  | { kind: 'unknownPlugin'; source: ProblemSource; path: string; known: string }
  /** A section for an optional first-party plugin whose package is not installed (AALIS_RUNTIME_PLUGIN_NOT_INSTALLED). */
  | { kind: 'pluginNotInstalled'; source: ProblemSource; path: string; name: string }
  | { kind: 'notObject'; source: ProblemSource; received: string }
  | { kind: 'unreadable'; source: ProblemSource; reason: string }
  | { kind: 'missing'; source: ProblemSource };

function where(source: ProblemSource, locale: Locale): string {
  if ('variable' in source)
    return translate(textRef('runtime.config.where.env', { variable: source.variable }), locale);
  if (source.line === undefined)
    return translate(textRef('runtime.config.where.fileOnly', { file: source.file }), locale);
  return translate(
    textRef('runtime.config.where.file', { file: source.file, line: source.line, column: source.column ?? 1 }),
    locale,
  );
}

export function formatProblem(problem: ConfigProblem, locale: Locale): string {
  const at = where(problem.source, locale);
  switch (problem.kind) {
    case 'syntax':
      return translate(textRef('runtime.config.syntax', { where: at, reason: problem.reason }), locale);
    case 'issue':
      return translate(
        textRef('runtime.config.issue', {
          where: at,
          path: problem.path,
          expected: problem.expected,
          received: problem.received,
        }),
        locale,
      );
    case 'unknownPlugin':
      return translate(
        textRef('runtime.config.unknownPlugin', { where: at, path: problem.path, known: problem.known }),
        locale,
      );
    case 'pluginNotInstalled':
      return translate(
        textRef('runtime.config.pluginNotInstalled', { where: at, path: problem.path, name: problem.name }),
        locale,
      );
    case 'notObject':
      return translate(textRef('runtime.config.notObject', { where: at, received: problem.received }), locale);
    case 'missing':
      return translate(
        textRef('runtime.config.missing', { file: 'file' in problem.source ? problem.source.file : '' }),
        locale,
      );
    case 'unreadable':
      return translate(
        textRef('runtime.config.unreadable', {
          file: 'file' in problem.source ? problem.source.file : '',
          reason: problem.reason,
        }),
        locale,
      );
  }
}

function inExistingFile(problem: ConfigProblem): boolean {
  return 'file' in problem.source && problem.kind !== 'missing';
}

/** The whole message printed when the configuration cannot start: a header, one line per problem, a hint. */
export function formatConfigProblems(problems: readonly ConfigProblem[], locale: Locale): string {
  return [
    translate(textRef('runtime.config.header'), locale),
    ...problems.map((problem) => `  ${formatProblem(problem, locale)}`),
    // Deleting the file brings back the defaults only for a problem in a file that exists (not for an environment
    // variable or a --config file that is missing).
    translate(textRef(problems.some(inExistingFile) ? 'runtime.config.footer' : 'runtime.config.footer.fix'), locale),
  ].join('\n');
}

/** The error startAalis throws for a configuration that cannot start (code AALIS_RUNTIME_CONFIG_INVALID). */
export function configError(problems: readonly ConfigProblem[], locale: Locale) {
  return runtimeErrors.AALIS_RUNTIME_CONFIG_INVALID(
    { count: problems.length, problems: problems.map((problem) => formatProblem(problem, locale)).join('\n') },
    { details: { problems, locale } },
  );
}

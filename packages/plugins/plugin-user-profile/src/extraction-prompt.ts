// What the extraction call is given: the turn's speakers labelled P1, P2 … (the model never names accounts, so an
// answer maps back only to this turn's speakers), the facts already kept about them, the turn as quoted data; and
// how its answer is read back (a JSON object; anything else is no facts).
import type { Message } from '@aalis/schema-message';

export interface ExtractionSpeaker {
  label: string;
  person: string;
  name: string;
  known: readonly string[];
}

export interface ExtractionLine {
  /** A speaker's label, or undefined for her reply. */
  label: string | undefined;
  text: string;
}

/** The turn as lines, inputs first then her reply, cut to `maxChars` in all. */
export function boundedLines(lines: readonly ExtractionLine[], maxChars: number): ExtractionLine[] {
  const kept: ExtractionLine[] = [];
  let left = maxChars;
  for (const line of lines) {
    if (left <= 0) break;
    const text = line.text.length > left ? `${line.text.slice(0, left)}…` : line.text;
    left -= line.text.length;
    kept.push({ ...line, text });
  }
  return kept;
}

export function extractionMessages({
  instructions,
  speakers,
  lines,
  knownTitle,
  turnTitle,
  herLabel,
}: {
  instructions: string;
  speakers: readonly ExtractionSpeaker[];
  lines: readonly ExtractionLine[];
  knownTitle: string;
  turnTitle: string;
  herLabel: string;
}): Message[] {
  const known = speakers.map((speaker) =>
    [
      `${speaker.label} (${JSON.stringify(speaker.name)}):`,
      ...speaker.known.map((fact) => `- ${JSON.stringify(fact)}`),
    ].join('\n'),
  );
  const turn = lines.map((line) => `${line.label ?? herLabel}: ${JSON.stringify(line.text)}`);
  return [
    { role: 'system', content: instructions },
    { role: 'user', content: [knownTitle, ...known, '', turnTitle, ...turn].join('\n') },
  ];
}

/** The facts of an answer, by speaker label; malformed entries are left out, a malformed answer is none. */
export function readExtraction(content: string): { label: string; fact: string }[] {
  const start = content.indexOf('{');
  const end = content.lastIndexOf('}');
  if (start < 0 || end <= start) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(content.slice(start, end + 1));
  } catch {
    return [];
  }
  const facts = (parsed as { facts?: unknown } | null)?.facts;
  if (!Array.isArray(facts)) return [];
  return facts.flatMap((entry: unknown) => {
    const { speaker, fact } = (entry ?? {}) as { speaker?: unknown; fact?: unknown };
    return typeof speaker === 'string' && typeof fact === 'string' ? [{ label: speaker.trim(), fact }] : [];
  });
}

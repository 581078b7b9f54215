// The `/` palette of the composer: open while the text is a slash and the start of a command name (no space yet),
// listing the commands this account may run (`commands.list`) whose name starts with what was typed, then those
// whose name or description contains it. Picking one puts `/<name> ` in the composer. Pure.
import type { CommandView } from '@aalis/session-client';

/** At most this many rows (the list scrolls no further: typing narrows it). */
export const PALETTE_ROWS = 8;

export interface PaletteRow {
  name: string;
  /** The usage line (`/remind <time> <text>`), or `/<name>` when the command gives none. */
  usage: string;
  description: string;
}

/** What the palette shows for the composer's text, or undefined when it is closed. */
export function paletteRows(commands: readonly CommandView[] | undefined, text: string): PaletteRow[] | undefined {
  if (!commands || !/^\/\S*$/.test(text)) return undefined;
  const query = text.slice(1).toLowerCase();
  const rows = commands.map((command) => {
    const name = command.name.replace(/^\//, '');
    return { name, usage: command.usage?.trim() || `/${name}`, description: command.description };
  });
  const starts = rows.filter((row) => row.name.toLowerCase().startsWith(query));
  const contains = rows.filter(
    (row) =>
      !starts.includes(row) &&
      query !== '' &&
      (row.name.toLowerCase().includes(query) || row.description.toLowerCase().includes(query)),
  );
  return [...starts, ...contains].slice(0, PALETTE_ROWS);
}

/** The composer's text after picking a row: the command and a space, ready for its arguments. */
export function pickedText(row: PaletteRow): string {
  return `/${row.name} `;
}

// A list setting written in one environment variable (`a,b,c`), read into the shape the schema checks, so that the
// environment and the file are validated by the same schema and their problems are worded alike.

export interface ListInput {
  /** The entries in the schema's shape where they could be read; as written where they could not. */
  value: unknown;
  /** Why entry i could not be read at all (the schema's errors for that entry are then left out). */
  problems: Map<number, string>;
  /** How a message about the environment variable names entry i or one of its fields (a file names its path). */
  subject(index: number, field: string | undefined): string;
}

export const splitList = (text: string): string[] =>
  text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/** Names an entry by its text, as the operator wrote it (for entries that hold no secret). */
export const quoted =
  (items: readonly string[]) =>
  (index: number, field: string | undefined): string =>
    `${JSON.stringify(items[index])}:${field ? ` ${field}` : ''}`;

/** A plain list of strings, `a,b,c`; each entry is named by its text. */
export function parseStrings(text: string): ListInput {
  const items = splitList(text);
  return { value: items, problems: new Map(), subject: quoted(items) };
}

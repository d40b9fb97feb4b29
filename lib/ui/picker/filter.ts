/**
 * The picker's filter and ranking. Every typed word must be in a session's
 * name or folder (ignoring case) for the session to match by name; those
 * rows come first, in list order. Sessions the find index says match by what
 * was said come next, each with the words that matched. A query of digits
 * only that is a list number puts that session first: Enter then resumes it,
 * as `claudecm`, `3`, Enter always did.
 *
 * @module
 */

/** A session as the picker shows it; texts already made safe for the screen. */
export interface PickerItem {
  /** Its number in the list (`claudecm resume N`). */
  number: number;
  guid: string;
  name: string;
  folder: string;
  /** `Mar 13`, `--`. */
  age: string;
  /** `1.5 MB`, `(missing)`. */
  size: string;
  tokens: string;
  live: boolean;
  /** Not in the saved list (one of all of claude's sessions): picking it adds it. */
  unlisted?: boolean;
  /** Name and folder in lower case, made once: the filter runs on every key. */
  haystack: string;
}

/** A shown row: its session and why it matched. */
export interface FilteredRow {
  item: PickerItem;
  /**
   * `all` (no query), `name` (in its name or folder), `number` (the typed list number) or
   * `content` (in what was said).
   */
  match: "all" | "name" | "number" | "content";
  /** For a content match: the words around the match. */
  snippet?: string;
}

/** What the find index found for a query: session id to the text around its match. */
export type ContentMatches = ReadonlyMap<string, string>;

/** `name` and `folder` as the filter compares them. */
export function haystackOf(name: string, folder: string): string {
  return caseless(`${name}\n${folder}`);
}

/** The rows `query` shows, best first. */
export function filterItems(
  items: readonly PickerItem[],
  query: string,
  content: ContentMatches = new Map(),
): FilteredRow[] {
  const words = caseless(query).split(/\s+/).filter((word) => word !== "");
  if (words.length === 0) return items.map((item) => ({ item, match: "all" }));
  const numbered = listNumberOf(query, items.length);
  const rows: FilteredRow[] = [];
  if (numbered !== null) rows.push({ item: items[numbered - 1], match: "number" });
  const byContent: FilteredRow[] = [];
  for (const item of items) {
    if (item.number === numbered) continue;
    if (words.every((word) => item.haystack.includes(word))) {
      rows.push({ item, match: "name" });
      continue;
    }
    const snippet = content.get(item.guid);
    if (snippet !== undefined) byContent.push({ item, match: "content", snippet });
  }
  return rows.concat(byContent);
}

/** The list number `query` is (digits only, 1 to `count`), else null. */
export function listNumberOf(query: string, count: number): number | null {
  const text = query.trim();
  if (!/^\d{1,9}$/.test(text)) return null;
  const number = Number(text);
  return number >= 1 && number <= count ? number : null;
}

/** Lower case, with the Greek final sigma as a sigma, as `search` compares names. */
function caseless(text: string): string {
  return text.toLowerCase().replaceAll("ς", "σ");
}

/**
 * Strings whose JSON has escapes, for checking that every fast transcript
 * reader decodes them: a Windows path (every one has backslashes), quotes,
 * `\u` escapes, a trailing backslash, a path past the short-string fast path.
 *
 * @module
 */

/** One case: the value a reader must return, and how it is written in a line. */
export interface EscapedString {
  name: string;
  value: string;
  /** The JSON string, quotes included. */
  json: string;
}

/** `value` as JSON with every non-ASCII character written as a `\u` escape. */
export function asciiJson(value: string): string {
  return JSON.stringify(value).replace(
    /[\u0080-\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

const longWindowsPath = "C:\\Users\\alice\\" +
  Array.from({ length: 24 }, (_, i) => `folder number ${i}`).join("\\");

/** The corpus: each value is read back by every reader. */
export const ESCAPED_STRINGS: readonly EscapedString[] = [
  { name: "Windows path", value: "C:\\Users\\a\\proj" },
  { name: "Windows path with spaces", value: "C:\\Users\\a b\\My Project 8" },
  { name: "drive root (trailing backslash)", value: "C:\\" },
  { name: "extended-length path", value: "\\\\?\\C:\\Users\\a\\proj" },
  { name: "UNC path", value: "\\\\server\\share\\proj" },
  { name: "long Windows path", value: longWindowsPath },
  { name: "quotes", value: '/home/a/say "hi"' },
  { name: "\\u escapes", value: "/home/a/café/日本" },
  { name: "surrogate pair", value: "/home/a/😀" },
  { name: "tab", value: "/home/a/tab\there" },
  // JSON allows `\/`; nothing here writes it, but a reader must read it.
  { name: "escaped solidus", value: "/home/a/proj", json: '"\\/home\\/a\\/proj"' },
].map((entry: { name: string; value: string; json?: string }) => ({
  ...entry,
  json: entry.json ?? asciiJson(entry.value),
}));

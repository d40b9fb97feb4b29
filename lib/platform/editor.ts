/**
 * The user's text editor (spec 11.14 step 2): `$VISUAL`, then `$EDITOR`, else
 * notepad on Windows and nano elsewhere. claudecm waits for it to close.
 *
 * @module
 */

import type { EnvReader, OsName } from "../core/paths.ts";
import { spawnInteractive } from "./spawn.ts";

/** The editor command as words: the program, then its own arguments (`code --wait`). */
export function editorCommand(env: EnvReader, os: OsName): string[] {
  const chosen = [env("VISUAL"), env("EDITOR")].find((value) => (value ?? "").trim() !== "");
  if (chosen !== undefined) return splitWords(chosen);
  return [os === "windows" ? "notepad" : "nano"];
}

/** Options for {@linkcode editFile}. */
export interface EditOptions {
  env: EnvReader;
  childEnv: Record<string, string>;
  os: OsName;
  /** Where the editor starts; where this process is when undefined. */
  cwd: string | undefined;
}

/** Open `path` in the editor on the terminal and wait for it to close; returns its exit code. */
export async function editFile(path: string, options: EditOptions): Promise<number> {
  const [program, ...args] = editorCommand(options.env, options.os);
  const child = spawnInteractive(program, [...args, path], {
    cwd: options.cwd,
    env: options.childEnv,
    os: options.os,
  });
  return await child.status;
}

/** Split on spaces, keeping double- or single-quoted words together (`"C:\\Program Files\\x.exe" -w`). */
function splitWords(text: string): string[] {
  const words: string[] = [];
  for (const match of text.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)) {
    words.push(match[1] ?? match[2] ?? match[3]);
  }
  return words;
}

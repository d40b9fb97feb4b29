/**
 * Whether a transcript's lines name files inside a folder: a session copied
 * from another (`--fork-session`, claude's own fork, a cmv trim, `/branch`)
 * still names the other's `<id>/tool-results/…` files by absolute path, and
 * the model opens them there (issue 30 item 3, DESIGN.md decision 24). The
 * folder's path is looked for as JSON writes it (a Windows path's
 * backslashes doubled), in the raw bytes of each line.
 *
 * @module
 */

import { scanLines } from "./lines.ts";
import { toLatin1 } from "./latin1.ts";

/**
 * Whether any line of the transcript at `path` names a path inside `folder`
 * (`folder` followed by `separator`). Throws when the transcript cannot be
 * read.
 */
export function namesPathsIn(path: string, folder: string, separator: string): boolean {
  return foldersNamedIn(path, [folder], separator).size > 0;
}

/**
 * Which of `folders` the transcript at `path` names a path inside, in one
 * read. Throws when the transcript cannot be read.
 */
export function foldersNamedIn(
  path: string,
  folders: readonly string[],
  separator: string,
): Set<string> {
  // A path in a JSON string: escaped as JSON escapes it, as its UTF-8 bytes (the line's latin1).
  const encoder = new TextEncoder();
  const needles = new Map(folders.map((folder) => [
    toLatin1(encoder.encode(JSON.stringify(folder + separator).slice(1, -1))),
    folder,
  ]));
  const found = new Set<string>();
  if (needles.size === 0) return found;
  scanLines(path, (line) => {
    for (const [needle, folder] of needles) {
      if (!line.latin1.includes(needle)) continue;
      found.add(folder);
      needles.delete(needle);
    }
    return needles.size > 0;
  });
  return found;
}

const SESSION_ID = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";

/**
 * The sessions' sidecar folders under `projectsDir` (`<projectsDir>/<key>/<id>`)
 * that the transcript at `path` names a path inside, in one read. Throws
 * when the transcript cannot be read.
 */
export function sidecarsNamedIn(path: string, projectsDir: string, separator: string): string[] {
  const encode = (text: string) =>
    toLatin1(new TextEncoder().encode(JSON.stringify(text).slice(1, -1)));
  const prefix = encode(projectsDir + separator);
  const sep = escapeRegExp(encode(separator));
  const pattern = new RegExp(
    `${escapeRegExp(prefix)}([A-Za-z0-9_-]+)${sep}(${SESSION_ID})${sep}`,
    "g",
  );
  const found = new Set<string>();
  scanLines(path, (line) => {
    if (!line.latin1.includes(prefix)) return;
    for (const match of line.latin1.matchAll(pattern)) {
      found.add(projectsDir + separator + match[1] + separator + match[2]);
    }
  });
  return [...found];
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

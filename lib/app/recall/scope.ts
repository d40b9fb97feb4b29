/**
 * `--scope HINT`: narrow the records to a file, a module (a folder or a
 * name) or a tag. A hint that is a record kind or a status (`edit`,
 * `commit`, `test`, `blocked`...) is a tag and selects by that alone.
 * Otherwise a record is in scope when one of its files is the hint or lies
 * under it (relative hints are taken from the session's folder), or when
 * its action mentions the hint (a todo's words, a module's name), the
 * session's own folder left out of the comparison so its name matches nothing.
 *
 * @module
 */

import { isAbsolute, resolve, sep } from "../../core/path.ts";
import type { TaggedRecord } from "./tag.ts";

const TAGS: ReadonlySet<string> = new Set([
  "write",
  "edit",
  "delete",
  "command",
  "test",
  "commit",
  "push",
  "read",
  "search",
  "cd",
  "todo",
  "tool",
  "branch",
  "completed",
  "in-progress",
  "blocked",
  "diverged",
]);

/** Whether `tagged` falls under `hint`; `base` resolves a relative hint. */
export function inScope(tagged: TaggedRecord, hint: string, base: string): boolean {
  const wanted = hint.trim().toLowerCase();
  if (wanted === "") return true;
  const record = tagged.record;
  if (TAGS.has(wanted)) return record.kind === wanted || tagged.status === wanted;
  const asPath = stripSeparators(isAbsolute(hint) ? hint : resolve(base, hint));
  if (
    record.paths.some((p) =>
      p === asPath || p.startsWith(asPath + sep) || p.startsWith(`${asPath}/`)
    )
  ) {
    return true;
  }
  const needle = wanted.replaceAll("\\", "/");
  const folder = `${stripSeparators(base).toLowerCase().replaceAll("\\", "/")}/`;
  return [record.action, ...record.paths].some((text) =>
    text.toLowerCase().replaceAll("\\", "/").replaceAll(folder, "").includes(needle)
  );
}

function stripSeparators(path: string): string {
  return path.length > 1 ? path.replace(/[\\/]+$/, "") : path;
}

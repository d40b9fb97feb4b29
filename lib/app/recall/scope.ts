/**
 * `--scope HINT`: narrow the records to a file, a module (a folder or a
 * name) or a tag. A record is in scope when the hint names its kind or its
 * status (`edit`, `commit`, `blocked`...), when one of its files is the hint
 * or lies under it (relative hints are taken from the session's folder), or
 * when its action mentions the hint (a todo's words, a module's name).
 *
 * @module
 */

import { isAbsolute, resolve, sep } from "node:path";
import type { TaggedRecord } from "./tag.ts";

/** Whether `tagged` falls under `hint`; `base` resolves a relative hint. */
export function inScope(tagged: TaggedRecord, hint: string, base: string): boolean {
  const wanted = hint.trim().toLowerCase();
  if (wanted === "") return true;
  const record = tagged.record;
  if (record.kind === wanted || tagged.status === wanted) return true;
  const asPath = stripSeparators(isAbsolute(hint) ? hint : resolve(base, hint));
  if (
    record.paths.some((p) =>
      p === asPath || p.startsWith(asPath + sep) || p.startsWith(`${asPath}/`)
    )
  ) {
    return true;
  }
  const needle = wanted.replaceAll("\\", "/");
  return [record.action, ...record.paths].some((text) =>
    text.toLowerCase().replaceAll("\\", "/").includes(needle)
  );
}

function stripSeparators(path: string): string {
  return path.length > 1 ? path.replace(/[\\/]+$/, "") : path;
}

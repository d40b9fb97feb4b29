/**
 * The lineage records of every session `tree` looks at (each transcript and
 * its subagents' transcripts), at the cost of what changed since the last
 * run: the cache (lib/store/lineage_cache.ts) gives an untouched file's
 * records, a file appended to is read from where the last read stopped (a
 * last line with no newline yet is read again whole), and anything else is
 * read in full (lib/core/file_change.ts decides). Whatever the cache holds,
 * the records are those a full read gives: an entry is used only for the
 * file it was made from. The cache is written back when an entry changed,
 * without the files gone since; a home that takes no write only costs the
 * next run a full read.
 *
 * @module
 */

import {
  type FileStamp,
  fileStamp,
  planRead,
  type ReadPlan,
  sameStamp,
} from "../../core/file_change.ts";
import {
  type CachedLineage,
  type LineageCache,
  readLineageCache,
  writeLineageCache,
} from "../../store/lineage_cache.ts";
import {
  type LineageRecord,
  mergeLineage,
  scanLineage,
  subagentTranscripts,
} from "../../transcript/lineage.ts";
import { endMarks } from "../../transcript/prefix_hash.ts";
import type { AppContext } from "../context.ts";
import type { SessionTranscripts } from "../session/session_transcripts.ts";

/** One file's records now, and what the cache keeps of it (none when it cannot be kept). */
export interface FileLineage {
  records: LineageRecord[];
  entry: CachedLineage | undefined;
  /** What was read: nothing, the bytes from the cached end, or the whole file. */
  read: ReadPlan["kind"];
}

/**
 * Each session's records, as `sessionLineageRecords` gives them, by session
 * id; a session whose transcript cannot be read now is left out.
 */
export function readSessionLineage(
  ctx: AppContext,
  transcripts: SessionTranscripts,
): Map<string, LineageRecord[]> {
  const before = readLineageCache(ctx.paths);
  const after: LineageCache = new Map();
  let changed = false;
  const read = (path: string): LineageRecord[] | undefined => {
    const cached = before.get(path);
    const now = fileLineage(path, cached);
    if (now?.entry !== undefined) after.set(path, now.entry);
    if (now?.entry !== cached) changed = true;
    return now?.records;
  };
  const found = new Map<string, LineageRecord[]>();
  for (const [id, { path }] of transcripts) {
    const own = read(path);
    // Unreadable now: claudecm's log may still link it.
    if (own === undefined) continue;
    const records = [...own];
    for (const agent of subagentTranscripts(path)) records.push(...read(agent) ?? []);
    found.set(id, records);
  }
  if (changed || [...before.keys()].some((path) => !after.has(path))) {
    writeLineageCache(ctx.paths, after);
  }
  return found;
}

/**
 * The records of the file at `path` given what the cache kept of it; the
 * same entry back when nothing in it changed. Undefined when the file cannot
 * be read.
 */
export function fileLineage(
  path: string,
  cached: CachedLineage | undefined,
): FileLineage | undefined {
  let stamp: FileStamp;
  try {
    const info = Deno.statSync(path);
    if (!info.isFile) return undefined;
    // Taken before the read: a file replaced meanwhile is another file next time, read in full.
    stamp = fileStamp(info);
  } catch {
    return undefined;
  }
  let plan: ReadPlan;
  try {
    plan = planRead(cached, stamp, (end) => endMarks(path, end));
  } catch {
    plan = { kind: "full" }; // Its first bytes unreadable now: the full read says so.
  }
  if (plan.kind === "reuse") return { records: cached!.records, entry: cached, read: "reuse" };
  const base = plan.kind === "append" ? cached! : undefined;
  let scan;
  try {
    scan = scanLineage(path, { start: base?.end ?? 0, linesBefore: base?.lines ?? 0 });
  } catch {
    return undefined;
  }
  const records = base === undefined ? scan.records : mergeLineage(base.records, scan.records);
  const shown = scan.pending === undefined ? records : mergeLineage(records, [scan.pending]);
  if (base !== undefined && scan.end === base.end) {
    // No line completed: the bytes before the end are the ones checked.
    const entry = sameStamp(base, stamp) ? base : { ...base, ...stamp };
    return { records: shown, entry, read: plan.kind };
  }
  try {
    const entry = {
      ...stamp,
      end: scan.end,
      lines: scan.lines,
      ...endMarks(path, scan.end),
      records,
    };
    return { records: shown, entry, read: plan.kind };
  } catch {
    return { records: shown, entry: undefined, read: plan.kind }; // Gone after its read: nothing kept.
  }
}

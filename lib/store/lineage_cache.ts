/**
 * The tree's lineage cache (`~/.claudecm/lineage-cache.json`): for each
 * transcript file `tree` read (sessions' and their subagents'), what it found
 * there (lib/transcript/lineage.ts) and what tells, next time, whether the
 * file is untouched, appended to or rewritten (lib/core/file_change.ts).
 * Derived data, claudecm's own: a cache that is missing, damaged, written by
 * another version or another reader counts as empty (every file is read in
 * full), and one that cannot be written (a read-only or full home) is not
 * written; neither is ever an error. Each entry is checked against its file
 * before use, so two windows writing it in turn (the last rename wins) leave
 * one that is right for both.
 *
 * @module
 */

import type { ReadMark } from "../core/file_change.ts";
import { readRegularFile } from "../core/fs_checks.ts";
import type { Paths } from "../core/paths.ts";
import { isSessionId } from "../core/registry.ts";
import { LINEAGE_READER, type LineageKind, type LineageRecord } from "../transcript/lineage.ts";
import { VERSION } from "../version.ts";
import { writeFileAtomic } from "./atomic_write.ts";

/** What the cache keeps of one file. */
export interface CachedLineage extends ReadMark {
  /** Whole lines before `end`: where a read from `end` numbers its lines from. */
  lines: number;
  /** The records of the bytes before `end`. */
  records: LineageRecord[];
}

/** The cache: each file's entry by its path. */
export type LineageCache = Map<string, CachedLineage>;

/** Bumped when the file's layout changes. */
const FORMAT = 1;
/** A cache past this is not read: far more than thousands of sessions' entries take. */
const MAX_BYTES = 256 * 1024 * 1024;
const KINDS: ReadonlySet<string> = new Set<LineageKind>([
  "forked-from",
  "continued-in",
  "fork-context-ref",
]);

/** The cache's path. */
export function lineageCachePath(paths: Paths): string {
  return paths.path.join(paths.cmHome, "lineage-cache.json");
}

/** The entries the cache holds that this claudecm wrote them the way it reads; never throws. */
export function readLineageCache(paths: Paths): LineageCache {
  const cache: LineageCache = new Map();
  let value: unknown;
  try {
    const read = readRegularFile(lineageCachePath(paths), MAX_BYTES);
    if ("skipped" in read) return cache;
    value = JSON.parse(new TextDecoder().decode(read.bytes));
  } catch {
    return cache; // Not there, unreadable or damaged: every file is read afresh.
  }
  if (!isObject(value) || value.format !== FORMAT || value.reader !== readerTag()) return cache;
  if (!isObject(value.files)) return cache;
  for (const [path, entry] of Object.entries(value.files)) {
    const cached = cachedOf(entry);
    if (cached !== undefined) cache.set(path, cached);
  }
  return cache;
}

/** Replace the cache with `cache`; false when the home takes no write (nothing is said). */
export function writeLineageCache(paths: Paths, cache: LineageCache): boolean {
  try {
    Deno.mkdirSync(paths.cmHome, { recursive: true });
    const files = Object.fromEntries(cache);
    writeFileAtomic(
      lineageCachePath(paths),
      JSON.stringify({ format: FORMAT, reader: readerTag(), files }),
    );
    return true;
  } catch {
    // Read-only, full, not ours: the next run reads the transcripts again, as this one did.
    return false;
  }
}

/** Another claudecm version, or another way of reading a line, finds nothing to reuse. */
function readerTag(): string {
  return `${VERSION} ${LINEAGE_READER}`;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const count = (value: unknown): value is number =>
  Number.isSafeInteger(value) && Number(value) >= 0;
const text = (value: unknown): value is string => typeof value === "string";

/** An entry as written, or undefined for anything else (that file is then read afresh). */
function cachedOf(value: unknown): CachedLineage | undefined {
  if (!isObject(value)) return undefined;
  const { size, mtimeMs, ctimeMs, identity, end, lines, head, tail, records } = value;
  if (!count(size) || !count(end) || !count(lines) || lines > end) return undefined;
  if (!Number.isFinite(mtimeMs) || !Number.isFinite(ctimeMs)) return undefined;
  if (!text(identity) || !text(head) || !text(tail) || !Array.isArray(records)) return undefined;
  const kept: LineageRecord[] = [];
  for (const record of records) {
    const valid = recordOf(record);
    if (valid === undefined) return undefined;
    kept.push(valid);
  }
  return {
    size,
    mtimeMs: Number(mtimeMs),
    ctimeMs: Number(ctimeMs),
    identity,
    end,
    lines,
    head,
    tail,
    records: kept,
  };
}

function recordOf(value: unknown): LineageRecord | undefined {
  if (!isObject(value)) return undefined;
  const { kind, sessionId, messageUuid, agentId, line } = value;
  if (!text(kind) || !KINDS.has(kind) || !text(sessionId) || !isSessionId(sessionId)) {
    return undefined;
  }
  if (!count(line) || line < 1) return undefined;
  if (
    (messageUuid !== undefined && !text(messageUuid)) || (agentId !== undefined && !text(agentId))
  ) {
    return undefined;
  }
  const record: LineageRecord = { kind: kind as LineageKind, sessionId, line };
  if (messageUuid !== undefined) record.messageUuid = messageUuid;
  if (agentId !== undefined) record.agentId = agentId;
  return record;
}

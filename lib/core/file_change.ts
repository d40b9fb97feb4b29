/**
 * How a file changed since a reader last went through it, for readers that
 * keep what they derived from each transcript (the find index, the tree's
 * lineage cache) and must never serve it stale. What a stat gives (size,
 * mtime, change time, the file's identity) tells an untouched file; an
 * append is told from a rewrite by hashes of a few bytes the reader kept,
 * which the caller computes: this module decides and reads nothing.
 *
 * @module
 */

/** What a stat says of a file, enough to tell it was touched. */
export interface FileStamp {
  size: number;
  mtimeMs: number;
  /**
   * The inode's change time: unlike mtime it cannot be set back, so a rewrite
   * at the same size with its old mtime restored (`cp -p`, `touch -r`) still
   * shows. Whole seconds on Linux in Deno; the mtime's time where there is none.
   */
  ctimeMs: number;
  /** `dev:ino` where the OS has inodes; else the creation time (a replacement is a new file). */
  identity: string;
}

/** The stamp of a file from its stat. */
export function fileStamp(info: Deno.FileInfo): FileStamp {
  const mtimeMs = info.mtime?.getTime() ?? 0;
  return {
    size: info.size,
    mtimeMs,
    ctimeMs: info.ctime?.getTime() ?? mtimeMs,
    // Windows has no inode (Deno gives null or 0): a file renamed over another is newly created.
    identity: info.ino !== null && info.ino !== 0
      ? `${info.dev}:${info.ino}`
      : `birth:${info.birthtime?.getTime() ?? 0}`,
  };
}

/** Whether two stamps are of the same, untouched file. */
export function sameStamp(a: FileStamp, b: FileStamp): boolean {
  return a.identity === b.identity && a.size === b.size && a.mtimeMs === b.mtimeMs &&
    a.ctimeMs === b.ctimeMs;
}

/** Hashes of the bytes before a read's end: the first few KiB and the last few before it. */
export interface EndMarks {
  head: string;
  tail: string;
}

/** What a reader kept of a file it went through. */
export interface ReadMark extends FileStamp, EndMarks {
  /**
   * The byte just past the last whole line read: a later read of appended
   * bytes starts there. Past `size` when the file grew while it was read.
   */
  end: number;
}

/** How to bring what was derived from a file up to date. */
export type ReadPlan =
  | { kind: "reuse" }
  | { kind: "append"; from: number }
  | { kind: "full" };

/**
 * What to read of a file now stamped `now`, given what was kept of it
 * (`mark`, none for a file never read). Untouched: nothing, or only a last
 * line that had no newline yet. Grown, the same file, with the bytes before
 * the old end hashing as they did (`marksNow(end)`, asked only then): from
 * the old end. Anything else (shorter, the same size but touched, another
 * file, different bytes before the old end): all of it. A rewrite that keeps
 * the same file, grows it and keeps both hashed stretches is taken for an
 * append; claude only appends, and claudecm replaces a transcript whole.
 */
export function planRead(
  mark: ReadMark | undefined,
  now: FileStamp,
  marksNow: (end: number) => EndMarks,
): ReadPlan {
  if (mark === undefined || mark.identity !== now.identity) return { kind: "full" };
  if (sameStamp(mark, now)) {
    if (mark.end === now.size) return { kind: "reuse" };
    // Grown while it was read, then back at that size untouched: that cannot be the same bytes.
    return mark.end < now.size ? { kind: "append", from: mark.end } : { kind: "full" };
  }
  if (now.size <= mark.size) return { kind: "full" };
  const marks = marksNow(mark.end);
  return marks.head === mark.head && marks.tail === mark.tail
    ? { kind: "append", from: mark.end }
    : { kind: "full" };
}

/**
 * The decision half of Do-OrphanScan (spec 11.5): given a project folder's
 * transcripts and the registry, which files are a problem. A file is one
 * when no session is registered under its id (an orphan), or when its
 * session is registered to another folder that shares this key (wrong
 * directory). Pure: the listing and the prompt are the app's.
 *
 * @module
 */

import { compareText } from "./compare_text.ts";
import type { Session } from "./registry.ts";

/** A transcript in the scanned folder. */
export interface FolderTranscript {
  guid: string;
  mtime: Date;
  sizeBytes: number;
}

/** A row of the orphan table. */
export interface OrphanRow extends FolderTranscript {
  /** The registered session with this id, main or archived. */
  session: Session | null;
  /** Registered, but to another directory than the scanned one. */
  wrongDirectory: boolean;
}

/**
 * The rows to show, newest first, or null when the folder is tidy: at most
 * one transcript, or every one registered to this directory.
 */
export function orphanRows(
  files: FolderTranscript[],
  registered: Session[],
  options: { dir: string; sameFolder: (a: string, b: string) => boolean },
): OrphanRow[] | null {
  if (files.length <= 1) return null;
  const byGuid = new Map(registered.map((session) => [session.guid, session]));
  const rows = [...files]
    // Two files written in the same millisecond keep one order on every run and every OS, so the
    // number a user reads is the number of the same file the next time too.
    .sort((a, b) => b.mtime.getTime() - a.mtime.getTime() || compareText(a.guid, b.guid))
    .map((file): OrphanRow => {
      const session = byGuid.get(file.guid) ?? null;
      const wrongDirectory = session !== null && !options.sameFolder(session.dir, options.dir);
      return { ...file, session, wrongDirectory };
    });
  return rows.some((row) => row.session === null || row.wrongDirectory) ? rows : null;
}

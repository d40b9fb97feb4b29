/**
 * One live copy of a session's transcript (issue 17 item 1). Older versions'
 * P#, a crash mid-move or a copy made by hand can leave `<guid>.jsonl` in
 * two project folders; claude then resumes whichever it finds first, which
 * may be the stale one, and the lines only the other holds drop out of the
 * session. Before a resume or a P#, the copy holding every other one (the
 * newest content) stays where it is and the others move to
 * `~/.claudecm/backup/<leaf>/`; when two copies have diverged, the user
 * chooses, and the other is kept there too.
 *
 * @module
 */

import type { AppContext } from "../context.ts";
import { recheckThenAct, refusalOf } from "../recheck.ts";
import { formatMinute, formatSize } from "../../core/format.ts";
import { sessionBackupDir } from "../../core/paths.ts";
import { type FileStamp, stampFile } from "../../core/preconditions.ts";
import { parseWholeNumber } from "../../core/numbers.ts";
import { isFile, lookAgainIfGone } from "../../core/fs_checks.ts";
import { findSessionCopies, type SessionCopy, sessionFilesFor } from "../../core/session_copies.ts";
import { moveSessionAside } from "../../store/move_aside.ts";
import { compareCopies, newestCopy } from "../../transcript/copy_order.ts";
import { namesPathsIn } from "../../transcript/named_paths.ts";

/** The session whose copies are gathered. */
export interface CopiesOf {
  guid: string;
  dir: string;
  desc: string;
  /** Whether it is a registry row (it must still be one when the copies move). */
  registered: boolean;
}

/**
 * Leave one copy of `session`'s transcript under the projects root; true to
 * go on (one copy or none), false when the user cancelled or the move was
 * refused (said why).
 */
export async function keepOneTranscriptCopy(ctx: AppContext, session: CopiesOf): Promise<boolean> {
  const seen = lookAtCopies(ctx, session);
  if (seen === "changing") {
    ctx.out.line(
      `  The copies of '${session.desc}' kept changing while they were compared (another ` +
        "claudecm is moving them); nothing was done. Try again.",
      "red",
    );
    return false;
  }
  const { copies, stamps, newest } = seen;
  if (copies.length < 2) return true;
  const keep = newest ?? askWhichCopy(ctx, { session, copies });
  if (keep === null) return false;
  const destDir = sessionBackupDir(ctx.paths, session.dir);
  // The copy that stays may name tool results under another copy's folder (DESIGN.md 24).
  const { join, sep } = ctx.paths.path;
  const namedByKept = (folder: string) => {
    try {
      return namesPathsIn(keep, join(folder, session.guid), sep);
    } catch {
      return false; // Unreadable now: the recheck below refuses the step anyway.
    }
  };
  const keptSidecars = new Set(copies.map((c) => c.folder).filter(namedByKept));
  const step = await recheckThenAct(ctx, {
    guid: session.guid,
    // Which copy stays was chosen by the row's folder: a row moved meanwhile makes that choice stale.
    registration: session.registered ? { registered: true, dir: session.dir } : undefined,
    files: stamps,
    copies: copies.map((copy) => copy.transcript),
  }, () => {
    for (const copy of copies) {
      if (copy.transcript === keep) continue;
      moveSessionAside(copy.folder, session.guid, {
        destDir,
        join,
        keepSidecar: keptSidecars.has(copy.folder),
      });
    }
    return { value: null };
  }).catch(refusalOf);
  if (!step.done) {
    ctx.out.line(
      `  The other copies of '${session.desc}' were not set aside: ${step.reason}.`,
      "red",
    );
    return false;
  }
  ctx.out.line(
    `  '${session.desc}' had ${copies.length} copies; continuing ${keep}, the others are in ` +
      `${destDir}.`,
    "cyan",
  );
  return true;
}

/** What {@linkcode lookAtCopies} saw: the copies, and the one to continue when one holds the rest. */
interface CopiesSeen {
  copies: SessionCopy[];
  stamps: FileStamp[];
  /** The copy to continue; null when they have diverged (the user picks). */
  newest: string | null;
}

/**
 * The session's copies and which one holds all the others. Another window's
 * P# or resume may move or remove a copy while it is being read (its own
 * refused copy, or one it set aside): the copies are then listed again
 * (lookAgainIfGone); "changing" when they never hold still.
 */
function lookAtCopies(ctx: AppContext, session: CopiesOf): CopiesSeen | "changing" {
  return lookAgainIfGone(() => {
    const copies = findSessionCopies(ctx.paths, session.guid);
    if (copies.length < 2) return { copies, stamps: [], newest: null };
    const stamps = copies.map((copy) => stampFile(copy.transcript))
      .filter((stamp): stamp is FileStamp => stamp !== null);
    const newest = newestCopy(copies.map((copy) => copy.transcript));
    return { copies, stamps, newest: newest === null ? null : ownIfSame(ctx, { session, newest }) };
  });
}

/**
 * The registered folder's copy when it is byte for byte the newest (a P#
 * stopped between its copy and its move leaves two equal copies): the row
 * still points there.
 */
function ownIfSame(
  ctx: AppContext,
  { session, newest }: { session: CopiesOf; newest: string },
): string {
  const own = sessionFilesFor(ctx.paths, session).transcript;
  if (own === newest || !isFile(own)) return newest;
  return compareCopies(own, newest) === "same" ? own : newest;
}

/** Two copies both hold lines the other lacks: the user picks one; null to cancel. */
function askWhichCopy(
  ctx: AppContext,
  { session, copies }: { session: CopiesOf; copies: SessionCopy[] },
): string | null {
  ctx.out.line();
  ctx.out.line(
    `  The copies of '${session.desc}' have diverged: each holds lines the other lacks.`,
    "yellow",
  );
  copies.forEach((copy, index) => {
    const when = copy.info.mtime === null ? "unknown" : formatMinute(copy.info.mtime);
    ctx.out.line(
      `  ${index + 1}. ${copy.transcript}  ${formatSize(copy.info.size)}  last written ${when}`,
    );
  });
  ctx.out.line("  The one you pick is continued; the others are kept in claudecm's backup folder.");
  const answer =
    (ctx.prompter.ask(`  Continue which copy? [1-${copies.length}, Enter to cancel]: `) ??
      "").trim();
  const number = parseWholeNumber(answer);
  const picked = number === null ? undefined : copies[number - 1];
  if (picked === undefined) {
    ctx.out.line("  Cancelled; both copies are where they were.");
    return null;
  }
  return picked.transcript;
}

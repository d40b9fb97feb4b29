/**
 * What `claudecm restore` and the vault's offer before a resume say: the
 * transcript gone or a link to nothing, what the vault has, what was put
 * back or why nothing was, and the next step.
 *
 * @module
 */

import type { AppContext } from "../context.ts";
import { formatSize } from "../../core/format.ts";
import type { Session } from "../../core/registry.ts";
import type { ResolvedSession } from "../session/resolve_session.ts";
import type { Restored } from "./restore_model.ts";

/** The transcript's place holds a symbolic link to nothing: `link`, which led to `target`. */
export function sayBrokenLink(
  ctx: AppContext,
  { session, link, target }: { session: Session; link: string; target: string },
): void {
  ctx.out.line(
    `  The transcript of '${session.desc}' is a symbolic link to nothing: ${link} led to ` +
      `${target}, which is gone.`,
    "yellow",
  );
}

/** The transcript is gone, from everywhere or from its folder (`olderCopy`: where one is left). */
export function sayGone(
  ctx: AppContext,
  { session, olderCopy }: { session: Session; olderCopy: string | null },
): void {
  ctx.out.line(
    olderCopy === null
      ? `  The transcript of '${session.desc}' is gone (most likely Claude Code's clean-up).`
      : `  The transcript of '${session.desc}' is gone from its folder; an older copy is at ` +
        `${olderCopy}.`,
    "yellow",
  );
}

/** What the vault keeps of it: its size and date, and that it holds all of an older copy. */
export function sayVaultHas(
  ctx: AppContext,
  { kept, olderCopy }: { kept: { size: number; mtime: Date | null }; olderCopy: string | null },
): void {
  const when = kept.mtime === null ? "" : `, last changed ${kept.mtime.toISOString().slice(0, 10)}`;
  const more = olderCopy === null ? "" : ", all of that copy and more";
  ctx.out.line(`  The vault has it (${formatSize(kept.size)}${when}${more}).`, "cyan");
}

/** What a restore left where claude reads it. */
export function sayRestored(
  ctx: AppContext,
  { session, done }: { session: Session; done: Restored },
): void {
  if (done.status === "in-place") {
    ctx.out.line(`  '${session.desc}' is already in place: ${done.transcript}`);
  } else {
    ctx.out.line(`  Restored '${session.desc}' from the vault: ${done.transcript}`, "green");
  }
  if (done.named !== undefined) {
    ctx.out.line(`  Put back ${done.named.length} files its lines name, from the vault.`, "green");
  }
}

/** Why nothing was restored: the re-check's `reason`, or a different file `inTheWay`. */
export function sayNotRestored(
  ctx: AppContext,
  why: { reason: string } | { inTheWay: string },
): void {
  ctx.err.line(
    "reason" in why
      ? `  Nothing was restored: ${why.reason}.`
      : `  A different file is already there: ${why.inTheWay}. Nothing was restored.`,
    "red",
  );
}

/** What to do next with what was put back (issue 31 item 11). */
export function sayNext(
  ctx: AppContext,
  { archived, number }: Pick<ResolvedSession, "archived" | "number">,
): void {
  ctx.out.line(
    archived
      ? `  Next: claudecm unarchive ${number}, then resume it from the list.`
      : `  Next: claudecm resume ${number}`,
  );
}

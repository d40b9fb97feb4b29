/**
 * Restoring a session from the vault: `claudecm restore <N|GUID>`, and the
 * offer every resume path makes first when a registered session's transcript
 * is gone and the vault has it. The transcript and its sidecar go back where
 * claude reads them (the registered folder's project folder), by hard link
 * or copy (always a copy under `CLAUDECM_VAULT=copy`); nothing that is already there is ever replaced.
 *
 * @module
 */

import type { AppContext } from "../context.ts";
import { recheckThenAct, refusalOf } from "../recheck.ts";
import { fileInfoOrNull } from "../../core/fs_checks.ts";
import { ExitCode, UserError } from "../../core/errors.ts";
import { isSessionLive } from "../../platform/live_sessions.ts";
import type { Session } from "../../core/registry.ts";
import { type SessionFiles, sessionFilesFor, vaultEntryFor } from "../../core/session_copies.ts";
import { locateTranscript, type TranscriptLocation } from "../../core/transcript_location.ts";
import { restoreVaultEntry } from "../../store/vault_entry.ts";
import { vaultSetting } from "../vault/vault_sync.ts";
import { restoreNamedSidecars } from "./restore_named.ts";
import { compareCopies, type CopyOrder } from "../../transcript/copy_order.ts";
import { askYesNo } from "../../ui/prompt.ts";
import { resolveSession } from "../session/resolve_session.ts";
import { safeJson } from "../../core/safe_text.ts";
import type { Restored } from "./restore_model.ts";
import {
  sayBrokenLink,
  sayGone,
  sayNext,
  sayNotRestored,
  sayRestored,
  sayVaultHas,
} from "./restore_view.ts";

/** `claudecm restore <N|GUID>`: restore without resuming. */
export async function runRestore(
  ctx: AppContext,
  options: { ref: string; json?: boolean },
): Promise<number> {
  const resolved = resolveSession(ctx, options.ref, { verb: "restore" });
  const { session } = resolved;
  const vault = vaultEntryFor(ctx.paths, session);
  if (vault === null) {
    throw new UserError(`the vault has no copy of '${session.desc}' (${session.guid})`);
  }
  if (isSessionLive(ctx.paths, session.guid)) {
    throw new UserError(`'${session.desc}' is open in a claude window now; close it first`);
  }
  const located = locateTranscript(ctx.paths, session);
  if (
    located.status === "found" && !located.inOwnFolder &&
    vaultVersus(vault.transcript, located.path) !== "first"
  ) {
    // A second copy in the registered folder would split the session in two (DESIGN.md 5.15);
    // one the vault's holds all of is only an older copy, which the next resume sets aside.
    throw new UserError(`its transcript is on disk at ${located.path}; nothing was restored`);
  }
  const brokenLink = brokenLinkInPlace(ctx, { session, located });
  if (brokenLink !== null && !options.json) {
    sayBrokenLink(ctx, { session, link: brokenLink, target: linkTarget(brokenLink) });
  }
  // `--json` never asks (DESIGN.md 5.2).
  if (
    brokenLink !== null &&
    (options.json || !askToReplaceLink(ctx, brokenLink, { defaultYes: false }))
  ) {
    throw new UserError(
      `its transcript ${brokenLink} is a symbolic link to nothing (it led to ` +
        `${linkTarget(brokenLink)}); nothing was restored: remove the link, or run ` +
        "claudecm restore in a terminal and agree to replace it",
    );
  }
  const copies = located.status === "found" ? [located.path] : [];
  const done = await restoreInto(ctx, session, { vault, copies, brokenLink });
  if (done === null) return ExitCode.failure;
  if (options.json) {
    ctx.out.line(safeJson({ sessionId: session.guid, ...done }, 2));
    return ExitCode.ok;
  }
  sayRestored(ctx, { session, done });
  sayNext(ctx, resolved);
  return ExitCode.ok;
}

/** How a restore offer ended. */
export type RestoreOffer = "restored" | "declined" | "unavailable" | "failed";

/**
 * When `session`'s transcript is gone from its folder, it is not live, and
 * the vault has it: offer to restore it, Enter for yes. Gone means found
 * nowhere, or found only elsewhere as an older copy the vault's holds and
 * more (an old P# or a hand copy): resuming that copy would drop the lines
 * only the vault has. Returns "unavailable" without a word in every other
 * case.
 */
export async function offerVaultRestore(ctx: AppContext, session: Session): Promise<RestoreOffer> {
  const located = locateTranscript(ctx.paths, session);
  // The vault is asked only for a transcript gone from its folder: one that cannot be read
  // stops the resume that needs it, never one that does not. A link to nothing is gone.
  const brokenLink = brokenLinkInPlace(ctx, { session, located });
  if (located.status === "unreadable" && brokenLink === null) return "unavailable";
  if (located.status === "found" && located.inOwnFolder) return "unavailable";
  const vault = vaultEntryFor(ctx.paths, session);
  const kept = vault === null ? null : fileInfoOrNull(vault.transcript);
  if (vault === null || kept === null) return "unavailable";
  const olderCopy = located.status === "found" &&
      vaultVersus(vault.transcript, located.path) === "first"
    ? located.path
    : null;
  if (located.status !== "missing" && olderCopy === null && brokenLink === null) {
    return "unavailable";
  }
  if (isSessionLive(ctx.paths, session.guid)) return "unavailable";
  ctx.out.line();
  if (brokenLink !== null) {
    sayBrokenLink(ctx, { session, link: brokenLink, target: linkTarget(brokenLink) });
  } else sayGone(ctx, { session, olderCopy });
  sayVaultHas(ctx, { kept, olderCopy });
  // No answer at all (input closed) is not a yes (DESIGN.md 5.14).
  const restore = brokenLink !== null
    ? askToReplaceLink(ctx, brokenLink, { defaultYes: true })
    : askYesNo(ctx.prompter, "  Restore it from the vault and resume? [Y/n]: ", {
      defaultYes: true,
    });
  if (!restore) return "declined";
  const copies = olderCopy === null ? [] : [olderCopy];
  const done = await restoreInto(ctx, session, { vault, copies, brokenLink });
  if (done === null) return "failed";
  sayRestored(ctx, { session, done });
  return "restored";
}

/**
 * How the vault's transcript relates to the copy at `copy` ("first": the
 * vault's holds all of it and more); null when either cannot be read (a
 * copy gone meanwhile; the resume reports one that is unreadable).
 */
function vaultVersus(vaulted: string, copy: string): CopyOrder | null {
  try {
    return compareCopies(vaulted, copy);
  } catch {
    return null;
  }
}

/**
 * Put the vault entry `vault` back, re-checking under the lock that the session is
 * still listed in its folder, not open in a claude, and has no copy but the
 * `copies` seen before (none, when the transcript was missing): another
 * window may have deleted it (a restore would bring it back), moved it or
 * restored it meanwhile, or pruned the vault.
 */
async function restoreInto(
  ctx: AppContext,
  session: Session,
  { vault, copies, brokenLink = null }: {
    vault: SessionFiles;
    copies: string[];
    /** The link to nothing at the transcript's place that the person agreed to replace. */
    brokenLink?: string | null;
  },
): Promise<Restored | null> {
  const target = sessionFilesFor(ctx.paths, session);
  // Copy mode: the restored transcript and the vault's entry never share one file.
  const copy = vaultSetting(ctx).mode === "copy";
  const step = await recheckThenAct(ctx, {
    guid: session.guid,
    registration: { registered: true, dir: session.dir },
    copies,
  }, () => ({
    value: restoreVaultEntry(vault, target, { copy, replaceBrokenLink: brokenLink !== null }),
  }))
    .catch(refusalOf);
  if (!step.done) {
    // Another window's restore of the same session got there first: it is in place.
    if (vaultVersus(vault.transcript, target.transcript) === "same") {
      return { status: "in-place", transcript: target.transcript };
    }
    sayNotRestored(ctx, { reason: step.reason });
    return null;
  }
  const result = step.value;
  if (result.status === "conflict") {
    sayNotRestored(ctx, { inTheWay: result.path });
    return null;
  }
  const status = result.files.length === 0 ? "in-place" : "restored";
  const named = restoreNamedSidecars(ctx, { transcript: target.transcript, guid: session.guid });
  return { status, transcript: target.transcript, ...(named.length > 0 ? { named } : {}) };
}

/**
 * The transcript's place in `session`'s own project folder when what stands
 * there is a symbolic link to nothing: a missing transcript, which the vault
 * may replace once the person agrees.
 */
function brokenLinkInPlace(
  ctx: AppContext,
  { session, located }: { session: Session; located: TranscriptLocation },
): string | null {
  if (located.status !== "unreadable" || located.brokenLink !== true) return null;
  return located.path === sessionFilesFor(ctx.paths, session).transcript ? located.path : null;
}

/** Ask before a link to nothing is replaced; no answer (input closed) is a no. */
function askToReplaceLink(
  ctx: AppContext,
  link: string,
  { defaultYes }: { defaultYes: boolean },
): boolean {
  return askYesNo(
    ctx.prompter,
    `  Replace the link ${link} with the vault's copy${
      defaultYes ? " and resume? [Y/n]" : "? [y/N]"
    }: `,
    { defaultYes },
  );
}

function linkTarget(path: string): string {
  try {
    return Deno.readLinkSync(path);
  } catch {
    return "?";
  }
}

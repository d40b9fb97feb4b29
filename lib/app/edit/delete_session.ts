/**
 * Deleting a session for good (spec 11.12), the one destructive action in
 * the menus: a typed `delete` confirms it, then every copy of the session's
 * transcript under the projects root (with its sidecar dir) is removed and
 * the row with it (issue 17 item 3: a copy left in another folder would come
 * back through `find` and `adopt`). The confirmation lists each path, and the
 * deletion re-checks under the registry lock that the session is still
 * closed, still listed and its files still the ones listed (item 2). The
 * copies claudecm set aside (the vault's, and the backup folder's from P#, a
 * fork or a trim) go with the last transcript: a permanent delete leaves no
 * full copy behind. A sidecar folder another registered session's lines name
 * files in stays, here and in the vault (DESIGN.md decision 24): the delete
 * takes this session's files, never another's.
 *
 * A file that cannot be removed (permissions, a file Windows holds open)
 * does not stop the rest, and the report names it: once no transcript is
 * left the row goes (claude no longer has the session; a vault file left
 * over is an unregistered entry that `vault prune` removes), else it stays.
 *
 * @module
 */

import type { AppContext } from "../context.ts";
import { refusedBeforeAsking } from "../save_check.ts";
import type { Output } from "../../ui/output.ts";
import { recheckThenAct, refusalOf } from "../recheck.ts";
import { namedTwice } from "./named_twice.ts";
import { removeVaultCopy, vaultCopyPaths } from "../vault/vault_remove.ts";
import { errorMessage } from "../../core/errors.ts";
import { isNotFound } from "../../core/fs_checks.ts";
import { type FileStamp, stampFile } from "../../core/preconditions.ts";
import { liveSessionIds } from "../../platform/live_sessions.ts";
import { findSession, type Session } from "../../core/registry.ts";
import { readRegistry } from "../../store/registry_store.ts";
import { removeSession } from "../../core/registry_ops.ts";
import {
  findBackupCopies,
  findSessionCopies,
  type SessionFiles,
  sessionFilesFor,
} from "../../core/session_copies.ts";
import { syncSessionIndex } from "../../store/session_index_sync.ts";
import { type KeptSidecar, keptSidecar } from "../session/kept_sidecar.ts";
import { type DeleteOutcome, deleteOutcome, listedPaths } from "./delete_plan.ts";
import { sayDeleted, sayRefusedStep, showWhatGoes } from "./delete_view.ts";

/** How {@linkcode deleteWithConfirmation} asks and where it speaks. */
export interface DeleteOptions {
  /** Given on the command line (`claudecm delete N --yes`): what is deleted is shown, not asked. */
  confirmed?: boolean;
  /** Where its lines go (`--json` sends them to stderr); `ctx.out` by default. */
  out?: Output;
  /**
   * Where it says why nothing (or not all) was deleted; `out` by default, as
   * a menu's dialogue. `claudecm delete` says it on stderr, as every refusal.
   */
  err?: Output;
}

/**
 * Ask, then delete the files and the row together; prints what happened.
 * The ONE delete path: D# in the edit list and the archived view, and
 * `claudecm delete N`.
 */
export async function deleteWithConfirmation(
  ctx: AppContext,
  session: Session,
  options: DeleteOptions = {},
): Promise<DeleteOutcome> {
  const out = options.out ?? ctx.out;
  const err = options.err ?? out;
  if (namedTwice(ctx, session.guid, { out: err })) {
    return { status: "refused", reason: "another line of the session list names it too" };
  }
  // Its files would go and its row stay: the question is not asked.
  if (refusedBeforeAsking(ctx, "Deleting a session", { out: err })) {
    return { status: "refused", reason: "nothing can be saved in this run" };
  }
  if (liveSessionIds(ctx.paths).has(session.guid)) {
    err.line(`  '${session.desc}' is open in a claude window now; close it first.`, "red");
    return { status: "refused", reason: "it is open in a claude window now" };
  }
  const copies = copiesToDelete(ctx, session);
  // What the user is shown is what may be deleted: stamped now, checked again when acting.
  const stamps = copies.map((files) => stampFile(files.transcript))
    .filter((stamp): stamp is FileStamp => stamp !== null);
  const staying = copies.flatMap((files) => keptFor(ctx, { files, guid: session.guid }) ?? []);
  const setAside = findBackupCopies(ctx.paths, session.guid);
  showWhatGoes(out, {
    session,
    listed: listedPaths(copies, { staying, present: exists }),
    noTranscript: copies.length === 0,
    staying,
    vaultCopy: vaultCopyPaths(ctx, session.guid),
    setAside,
  });
  const answer = options.confirmed ? "delete" : ctx.prompter.ask("  Type 'delete' to confirm: ");
  if (answer === null || answer.trim().toLowerCase() !== "delete") {
    err.line("  Cancelled.");
    return { status: "cancelled" };
  }
  const step = await recheckThenAct(ctx, {
    guid: session.guid,
    registration: { registered: true },
    files: stamps,
    copies: copies.map((files) => files.transcript),
  }, () => {
    // Decided again under the lock: a session registered since may name files there too.
    const keptNow = copies.filter((files) => keptFor(ctx, { files, guid: session.guid }) !== null);
    const failures = copies.flatMap((files) =>
      deleteSessionFiles(files, { keepSidecar: keptNow.includes(files) })
    );
    const transcriptLeft = copies.some((files) => exists(files.transcript));
    return {
      value: { failures, transcriptLeft, keepSidecar: keptNow.length > 0 },
      change: (r) => transcriptLeft ? r : removeSession(r, session.guid, { ifPresent: true }),
    };
  }).catch(refusalOf);
  if (!step.done) {
    const acted = step.acted === true;
    sayRefusedStep(err, {
      reason: step.reason,
      acted,
      entryThere: () => findSession(readRegistry(ctx.paths), session.guid) !== undefined,
    });
    return acted
      ? { status: "refused", reason: step.reason, acted: true }
      : { status: "refused", reason: step.reason };
  }
  syncSessionIndex(ctx.paths, session.dir, step.registry);
  const { failures, transcriptLeft, keepSidecar } = step.value;
  // The vault's and the backup's copies go only with the last transcript, and only once the
  // row is gone: until then the session is restorable, and a kill in between leaves no row
  // with nothing behind it (an unregistered vault entry is what vault prune removes).
  if (!transcriptLeft) {
    try {
      // The vault keeps a sidecar whose files a registered session names, as vault prune does.
      failures.push(...removeVaultCopy(ctx, session.guid, { keepSidecar }));
    } catch (error) {
      // The vault could be read when the confirmation listed it; another program changed that.
      failures.push(`its copy in the vault: ${errorMessage(error)}`);
    }
    failures.push(...setAside.flatMap(removePath));
  }
  const removed = copies.flatMap((files) => [files.transcript, files.sidecar])
    .filter((path) => !exists(path));
  const outcome = deleteOutcome({ removed, failures, transcriptLeft });
  sayDeleted(outcome.status === "deleted" ? out : err, { session, outcome });
  return outcome;
}

/**
 * Every copy under the projects root, plus the registered folder's names when
 * something is there that is not a readable transcript (a sidecar left alone,
 * a link that cannot be followed).
 */
function copiesToDelete(ctx: AppContext, session: Session): SessionFiles[] {
  const copies: SessionFiles[] = findSessionCopies(ctx.paths, session.guid);
  const own = sessionFilesFor(ctx.paths, session);
  if (copies.some((files) => files.folder === own.folder)) return copies;
  return [own.transcript, own.sidecar].some(exists) ? [...copies, own] : copies;
}

/** Whether `path` is there at all (a link that leads nowhere counts). */
function exists(path: string): boolean {
  try {
    Deno.lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * The sidecar of one copy that a delete leaves where it is: another
 * registered session's lines name files in it (DESIGN.md decision 24).
 */
function keptFor(
  ctx: AppContext,
  { files, guid }: { files: SessionFiles; guid: string },
): KeptSidecar | null {
  return keptSidecar(ctx, { folder: files.folder, guid, everywhere: true });
}

/** Remove one copy's `<guid>.jsonl` and `<guid>/`; what could not be removed, with why. */
function deleteSessionFiles(
  files: SessionFiles,
  { keepSidecar }: { keepSidecar: boolean },
): string[] {
  return [files.transcript, ...(keepSidecar ? [] : [files.sidecar])].flatMap(removePath);
}

/** Remove `path` (a folder with what is in it); what could not be removed, with why. */
function removePath(path: string): string[] {
  try {
    Deno.removeSync(path, { recursive: true });
    return [];
  } catch (error) {
    // Only "not found" is nothing to delete; anything else is said as what it is (5.11).
    return isNotFound(error) ? [] : [`${path}: ${errorMessage(error)}`];
  }
}

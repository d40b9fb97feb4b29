/**
 * The transcript an export reads: the session named (a list number, a
 * session id or an exact saved name) where claude keeps it, else the vault's
 * copy (claude deleted it), else the copy claudecm set aside in the backup
 * folder (a fork's predecessor, a trimmed original); for a session with no
 * row, the backup's copy before the vault's (claudecm set it aside).
 *
 * @module
 */

import { ExitCode, UserError } from "../../core/errors.ts";
import { probePath } from "../../core/fs_checks.ts";
import type { Session } from "../../core/registry.ts";
import { findBackupCopies, findVaultEntries, vaultEntryFor } from "../../core/session_copies.ts";
import { locateTranscript } from "../../core/transcript_location.ts";
import { readRegistry } from "../../store/registry_store.ts";
import { resolveSessionOrId } from "../session/session_or_id.ts";
import type { AppContext } from "../context.ts";

/** Where an export reads from. */
export interface ExportSource {
  guid: string;
  /** The transcript. */
  path: string;
  /** `<guid>/` beside it: subagents, tool results. */
  sidecar: string;
  /** The registry row, when the session is registered. */
  session?: Session;
  /** Where it was found, said in the header: "claude's project folder", "the vault", ... */
  where: "projects" | "vault" | "backup";
}

/** The session `ref` names and the transcript to export, or a UserError saying why not. */
export function resolveExportSource(ctx: AppContext, ref: string): ExportSource {
  const registry = readRegistry(ctx.paths);
  const { guid, session } = resolveSessionOrId(ctx, ref, registry);
  const { path } = ctx.paths;
  const located = locateTranscript(ctx.paths, { guid, dir: session?.dir ?? ctx.cwd() });
  if (located.status === "unreadable") {
    throw new UserError(`cannot look for session ${guid}: ${located.error}: ${located.path}`);
  }
  if (located.status === "found") {
    return {
      guid,
      path: located.path,
      sidecar: path.join(path.dirname(located.path), guid),
      session,
      where: "projects",
    };
  }
  const fromVault = (): ExportSource | undefined => {
    const vault = session !== undefined
      ? vaultEntryFor(ctx.paths, session)
      : findVaultEntries(ctx.paths, guid).find((entry) =>
        probePath(entry.transcript).kind === "file"
      );
    return vault
      ? { guid, path: vault.transcript, sidecar: vault.sidecar, session, where: "vault" }
      : undefined;
  };
  const fromBackup = (): ExportSource | undefined => {
    const backup = findBackupCopies(ctx.paths, guid)
      .filter((copy) => /\.jsonl(\.\d+)?$/.test(copy))
      .find((copy) => probePath(copy).kind === "file");
    return backup === undefined ? undefined : {
      guid,
      path: backup,
      sidecar: path.join(path.dirname(backup), guid),
      session,
      where: "backup",
    };
  };
  // A session without a row that claudecm set aside (a fork's predecessor, a trimmed original) is
  // the backup's, as tree says, though the vault keeps a copy too: claude did not delete it.
  const found = session !== undefined ? fromVault() ?? fromBackup() : fromBackup() ?? fromVault();
  if (found !== undefined) return found;
  throw new UserError(
    `no transcript of session ${guid} in claude's folders, the vault or the backups`,
    ExitCode.notFound,
  );
}

/**
 * Keeping the vault in step (issue 20): every registered session's
 * transcript and sidecar, linked or copied into `~/.claudecm/vault/`. Runs at
 * the bootstrap of every command that writes (all registered sessions), after
 * a run that touched sessions (post-exit, fork, trim, adopt: those ones), and
 * on demand (`claudecm vault sync`).
 *
 * The vault never stops a command: a full disk or a read-only vault gets one
 * line naming the path, and the command goes on.
 *
 * One sync at a time: two windows syncing the same entries at once would
 * each act on what the other is rewriting (each shifting a generation out,
 * or copying a file the other has grown). A sync holds `vault.lock` beside
 * the vault; one that cannot have it within a few seconds is skipped, as
 * the sync already running does the same work (`vault sync` says so).
 *
 * @module
 */

import type { AppContext } from "../context.ts";
import { errorMessage } from "../../core/errors.ts";
import { isWriteRefusal } from "../../core/write_refusal.ts";
import { compareText } from "../../core/compare_text.ts";
import { isNotFound, subdirectoryNames } from "../../core/fs_checks.ts";
import {
  archivedSessions,
  isSessionId,
  mainSessions,
  type Registry,
  type Session,
  sessionsOfUnparsedLines,
  transcriptSessionId,
} from "../../core/registry.ts";
import { projectFolderName } from "../../core/paths.ts";
import { type SessionFiles, sessionFilesIn } from "../../core/session_copies.ts";
import { withFileLockSync } from "../../store/lock.ts";
import { readRegistry } from "../../store/registry_store.ts";
import { removeDeadWritersTemps } from "../../store/stale_temps.ts";
import { type EntrySyncResult, foldersUnder, syncVaultEntry } from "../../store/vault_entry.ts";

/** `CLAUDECM_VAULT`: `off` turns the vault off; `copy` forces copy mode; `on` is the default. */
export const VAULT_ENV = "CLAUDECM_VAULT";

/** What a sync did. */
export interface VaultSyncSummary {
  /** Sessions whose entry is up to date. */
  synced: number;
  /** Entries written in this sync. */
  changed: number;
  /** Sessions whose transcript is not where claude reads it (the vault keeps any entry it has). */
  absent: number;
  /** Entries kept by copy: links could not be made. */
  copied: number;
  /** The first failure, named by path; null when none. */
  failure: string | null;
  /** Skipped: another claudecm was syncing the vault and did not finish in time. */
  busy: boolean;
}

/** How the vault keeps sessions, from `CLAUDECM_VAULT`, and what it did not understand there. */
export interface VaultSetting {
  /** `link`: hard links, copies where links fail (the default); `copy`: copies; `off`. */
  mode: "link" | "copy" | "off";
  /** A value that is none of `off`, `copy`, `on`: said, never a silent change. */
  error: string | null;
}

/** The vault's setting; a value it does not know keeps the default (a typo turns nothing off). */
export function vaultSetting(ctx: AppContext): VaultSetting {
  const typed = ctx.env(VAULT_ENV)?.trim() ?? "";
  const value = typed.toLowerCase();
  if (value === "off" || value === "copy") return { mode: value, error: null };
  if (value === "" || value === "on" || value === "link") return { mode: "link", error: null };
  return {
    mode: "link",
    error:
      `${VAULT_ENV}=${typed} is not off, copy or on: the vault keeps hard links, as by default`,
  };
}

/** Whether the vault is on (it is unless `CLAUDECM_VAULT=off`). */
export function vaultEnabled(ctx: AppContext): boolean {
  return vaultSetting(ctx).mode !== "off";
}

/** Options for {@linkcode syncVault}. */
export interface SyncVaultOptions {
  /** Only these sessions (the ones a run touched); all registered ones by default. */
  guids?: readonly string[];
  /** Say a failure in one line on stderr (true) or leave it to the caller. */
  quiet?: boolean;
}

/**
 * Sync the vault entries of registered sessions. Never throws: a failure is
 * said in one yellow line (unless `quiet`) and returned.
 */
export function syncVault(ctx: AppContext, options: SyncVaultOptions = {}): VaultSyncSummary {
  const summary: VaultSyncSummary = {
    synced: 0,
    changed: 0,
    absent: 0,
    copied: 0,
    failure: null,
    busy: false,
  };
  const setting = vaultSetting(ctx);
  if (setting.mode === "off") return summary;
  if (setting.error !== null && options.quiet !== true) {
    ctx.err.line(`  ${setting.error}`, "yellow");
  }
  try {
    Deno.mkdirSync(ctx.paths.cmHome, { recursive: true });
    const done = withFileLockSync(vaultLockPath(ctx), () => syncEntries(ctx, options, summary));
    summary.busy = done === undefined;
  } catch (error) {
    summary.failure = `${vaultLockPath(ctx)}: ${errorMessage(error)}`;
  }
  if (summary.failure !== null && options.quiet !== true) {
    ctx.err.line(`  The vault could not be updated: ${summary.failure}`, "yellow");
  }
  return summary;
}

/** The lock one vault sync holds at a time: `vault.lock` beside the vault. */
export function vaultLockPath(ctx: AppContext): string {
  return `${ctx.paths.vaultDir}.lock`;
}

/** Sync the entries `options` name into `summary`; the caller holds the vault lock. */
function syncEntries(ctx: AppContext, options: SyncVaultOptions, summary: VaultSyncSummary): true {
  let sessions: Session[];
  try {
    sessions = vaultedSessions(readRegistry(ctx.paths));
  } catch {
    return true; // The registry's own problems are reported by the command that reads it.
  }
  const wanted = options.guids === undefined ? null : new Set(options.guids);
  const forceCopy = vaultSetting(ctx).mode === "copy";
  // One realpath and one listing per folder, not a realpath and failed lookups per
  // session: bootstrap runs this over every row.
  const keys = new Map<string, string>();
  const { join } = ctx.paths.path;
  const listings = new Map<string, Set<string> | null>();
  const listing = (key: string) => {
    if (!listings.has(key)) listings.set(key, listNames(join(ctx.paths.projectsDir, key)));
    return listings.get(key)!;
  };
  let elsewhere: Map<string, string> | undefined;
  const swept = new Set<string>();
  for (const session of sessions) {
    if (wanted !== null && !wanted.has(session.guid)) continue;
    if (!isSessionId(session.guid)) continue;
    // A line that does not parse may name no folder claude could have run in.
    let key = keys.get(session.dir) ?? null;
    if (key === null && ctx.paths.path.isAbsolute(session.dir)) {
      keys.set(session.dir, key = projectFolderName(ctx.paths, session.dir));
    }
    if (key === null || listing(key)?.has(`${session.guid}.jsonl`) === false) {
      // Not in its row's folder's key: its row's folder changed since claude wrote it (P# by
      // an older claudecm, a folder turned into a link), and claude finds it by id anywhere.
      elsewhere ??= transcriptKeys(ctx, listing);
      const found = elsewhere.get(session.guid);
      if (found === undefined) {
        summary.absent++;
        continue;
      }
      key = found;
    }
    // The same places as sessionFilesFor and vaultFilesFor name, for the key it is under.
    const source = sessionFilesIn(ctx.paths, join(ctx.paths.projectsDir, key), session.guid);
    const vault = sessionFilesIn(ctx.paths, join(ctx.paths.vaultDir, key), session.guid);
    const sidecar = listing(key)?.has(session.guid) !== false;
    let result: EntrySyncResult | null;
    try {
      result = syncVaultEntry(source, vault, { forceCopy, sidecar });
    } catch (error) {
      summary.failure ??= `${vault.folder}: ${errorMessage(error)}`;
      // A full or read-only vault fails the same way for every session; one session's files
      // that cannot be read (a link loop, a folder where a file was) fail only that session.
      if (isWriteRefusal(error)) break;
      continue;
    }
    if (result === null) {
      summary.absent++;
      continue;
    }
    summary.synced++;
    if (result.changed) {
      summary.changed++;
      sweepEntry(vault, swept);
    }
    if (result.mode === "copy") summary.copied++;
  }
  return true;
}

/**
 * The sessions the vault keeps: every row, and every session a line that
 * does not parse names (a name holding `|`, a field too many): that line is
 * kept as written and still names its session, whose transcript a fix of the
 * line shows again (issue 30 item 13).
 */
export function vaultedSessions(registry: Registry): Session[] {
  const rows = [...mainSessions(registry), ...archivedSessions(registry)];
  const seen = new Set(rows.map((session) => session.guid));
  for (const session of sessionsOfUnparsedLines(registry)) {
    if (seen.has(session.guid)) continue;
    seen.add(session.guid);
    rows.push(session);
  }
  return rows;
}

/**
 * A sync killed while it wrote an entry left a temporary file there, and
 * that entry changes again in the next sync: sweep its folders then, each
 * folder once a run (a whole-vault sweep is `claudecm vault sync`'s).
 */
function sweepEntry(vault: SessionFiles, swept: Set<string>): void {
  for (const folder of [vault.folder, ...foldersUnder(vault.sidecar)]) {
    if (swept.has(folder)) continue;
    swept.add(folder);
    removeDeadWritersTemps(folder);
  }
}

/** The project folder (key) each transcript is in, by session id; the first folder by name wins. */
function transcriptKeys(
  ctx: AppContext,
  listing: (key: string) => Set<string> | null,
): Map<string, string> {
  const keys = new Map<string, string>();
  for (const key of subdirectoryNames(ctx.paths.projectsDir).sort(compareText)) {
    for (const name of listing(key) ?? []) {
      const id = transcriptSessionId(name);
      if (id !== null && !keys.has(id)) keys.set(id, key);
    }
  }
  return keys;
}

/** The names in `folder` (none when it does not exist); null when it cannot be listed. */
function listNames(folder: string): Set<string> | null {
  try {
    return new Set([...Deno.readDirSync(folder)].map((entry) => entry.name));
  } catch (error) {
    return isNotFound(error) ? new Set() : null;
  }
}

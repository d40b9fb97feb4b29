/**
 * `claudecm vault prune [--dry-run]`: remove the vault entries whose session
 * is no longer registered (a fork's predecessor, a trimmed original, a row
 * removed by hand). The vault never drops a session a registry line names,
 * even a line that does not parse, whichever
 * folder's key its entry sits under (a row's folder may have changed since:
 * P#, a `/cd`, a folder turned into a link); this is the only way an
 * unregistered entry leaves it. An entry a registered session points at
 * (the tool results its lines name, its parent: pointed_at.ts) stays.
 * Registration is re-checked under the registry lock right before each
 * removal.
 *
 * @module
 */

import type { AppContext } from "../context.ts";
import { errorMessage, ExitCode } from "../../core/errors.ts";
import { formatSize } from "../../core/format.ts";
import { safeJson } from "../../core/safe_text.ts";
import { readDirIfPresent } from "../../core/fs_checks.ts";
import {
  canonicalSessionId,
  isSessionId,
  namedSessionIds,
  type Registry,
} from "../../core/registry.ts";
import { type SessionFiles, sessionFilesIn } from "../../core/session_copies.ts";
import { withFileLock } from "../../store/lock.ts";
import { removeIfEmpty } from "../../store/merge_move.ts";
import { readRegistry } from "../../store/registry_store.ts";
import { removeVaultEntry, vaultEntrySize } from "../../store/vault_entry.ts";
import { pointedAtSessions } from "./pointed_at.ts";

/** An entry `vault prune --json` reports: whose, where, and its bytes (and what removing frees). */
interface PrunedEntry {
  sessionId: string;
  transcript: string;
  bytes: number;
  freed: number;
}

function pruneJson(entries: PrunedEntry[], options: { dryRun: boolean }): string {
  return safeJson({ dryRun: options.dryRun, entries }, 2);
}

/** An entry of the vault, by folder and session id. */
interface VaultEntry extends SessionFiles {
  guid: string;
}

/** List, and unless `dryRun` remove, the entries of unregistered sessions. */
export async function runVaultPrune(
  ctx: AppContext,
  options: { dryRun: boolean; json?: boolean },
): Promise<number> {
  const registry = readRegistry(ctx.paths);
  const unregistered = unregisteredEntries(ctx, registry);
  // Kept for a registered session that points at it (its tool results, its parent).
  const pointed = pointedAtSessions(
    ctx,
    registry,
    unregistered.map((entry) => ({
      key: ctx.paths.path.basename(entry.folder),
      guid: entry.guid,
    })),
  );
  const stale = unregistered.filter((entry) => !pointed.has(entry.guid));
  // With --json the report is one object at the end; the lines below are for a person.
  const out = options.json ? { line: () => {} } : ctx.out;
  for (const [guid, by] of pointed) {
    out.line(`  keeping ${guid}: registered session ${by} points at its files`, "darkGray");
  }
  if (stale.length === 0) {
    out.line("  Nothing to prune: every vault entry belongs to a registered session.");
    if (options.json) ctx.out.line(pruneJson([], options));
    return ExitCode.ok;
  }
  let bytes = 0;
  let freed = 0;
  const listed: PrunedEntry[] = [];
  for (const entry of stale) {
    const size = vaultEntrySize(entry);
    bytes += size.bytes;
    freed += size.freed;
    listed.push({ sessionId: entry.guid, transcript: entry.transcript, ...size });
    out.line(
      `  ${options.dryRun ? "would remove" : "removing"} ${entry.guid}  ${entry.transcript}  ${
        formatSize(size.bytes)
      }`,
    );
  }
  if (options.json && options.dryRun) ctx.out.line(pruneJson(listed, options));
  if (options.dryRun) {
    out.line(
      `  ${stale.length} entries, ${formatSize(bytes)}; removing them would free ${
        formatSize(freed)
      }.`,
    );
    if (!options.json) sayLinkNote(ctx, bytes, freed);
    return ExitCode.ok;
  }
  const failure = await withFileLock(ctx.paths.lockFile, ({ held }) => {
    // A registry read without the lock may miss a row another window is adding (issue 30
    // item 2): after the lock's timeout, removal is not worth that risk.
    if (!held) {
      return `another claudecm held ${ctx.paths.lockFile} past the wait, so a session being ` +
        "registered now could not be seen; nothing was pruned: run claudecm vault prune again";
    }
    // Re-read under the lock: a session registered meanwhile keeps its entry.
    const still = new Set(
      unregisteredEntries(ctx, readRegistry(ctx.paths)).map((e) => e.transcript),
    );
    for (const entry of stale) {
      if (!still.has(entry.transcript)) continue;
      try {
        removeVaultEntry(entry);
      } catch (error) {
        return `${entry.transcript}: ${errorMessage(error)}`;
      }
      removeIfEmpty(entry.folder);
    }
    return null;
  });
  if (failure !== null) {
    ctx.err.line(`  Could not prune the vault: ${failure}`, "red");
    return ExitCode.failure;
  }
  if (options.json) {
    ctx.out.line(pruneJson(listed, options));
    return ExitCode.ok;
  }
  ctx.out.line(
    `  Removed ${stale.length} entries (${formatSize(bytes)}); freed ${formatSize(freed)}.`,
    "green",
  );
  sayLinkNote(ctx, bytes, freed);
  return ExitCode.ok;
}

function sayLinkNote(ctx: AppContext, bytes: number, freed: number): void {
  if (freed >= bytes) return;
  ctx.out.line(
    "  Hard-linked files free their space only when no other link remains (the transcript " +
      "itself, or a backup, still holds the rest).",
    "darkGray",
  );
}

/** Vault entries of sessions no registered row names; a vault that cannot be read throws. */
function unregisteredEntries(ctx: AppContext, registry: Registry): VaultEntry[] {
  const { paths } = ctx;
  const registered = namedSessionIds(registry);
  const entries: VaultEntry[] = [];
  for (const keyEntry of readDirIfPresent(paths.vaultDir)) {
    if (!keyEntry.isDirectory) continue;
    const folder = paths.path.join(paths.vaultDir, keyEntry.name);
    const guids = new Set<string>();
    for (const entry of readDirIfPresent(folder)) {
      const guid = /^([0-9a-fA-F-]{36})(\.gen\d+)?(\.jsonl)?$/.exec(entry.name)?.[1];
      if (guid !== undefined && isSessionId(guid)) guids.add(guid);
    }
    for (const guid of [...guids].sort()) {
      if (!registered.has(canonicalSessionId(guid))) {
        entries.push({ ...sessionFilesIn(paths, folder, guid), guid });
      }
    }
  }
  return entries;
}

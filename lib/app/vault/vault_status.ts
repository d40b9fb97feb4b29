/**
 * `claudecm vault [--json]`: per registered session, whether the vault
 * protects it and how (hard link or copy), its bytes, and why not when it
 * does not; totals with hard-linked bytes counted once. Read-only.
 *
 * @module
 */

import type { AppContext } from "../context.ts";
import { readListNumbers } from "../session/list_numbers.ts";
import { VAULT_ENV, vaultedSessions, vaultEnabled, vaultSetting } from "./vault_sync.ts";
import { fileInfoOrNull } from "../../core/fs_checks.ts";
import { ExitCode } from "../../core/errors.ts";
import { formatSize } from "../../core/format.ts";
import { isSessionLive } from "../../platform/live_sessions.ts";
import {
  archivedSessions,
  mainSessions,
  malformedLineNaming,
  type Session,
} from "../../core/registry.ts";
import {
  type SessionFiles,
  sessionFilesFor,
  sessionFilesIn,
  vaultEntryFor,
  vaultFilesFor,
} from "../../core/session_copies.ts";
import { locateTranscript } from "../../core/transcript_location.ts";
import { readRegistry } from "../../store/registry_store.ts";
import { filesUnder, vaultEntryFiles } from "../../store/vault_entry.ts";
import { join, relative } from "../../core/path.ts";
import { sameInode, type VaultMode } from "../../store/vault_file_sync.ts";
import { safeJson } from "../../core/safe_text.ts";

/** One session in `vault --json` (the pinned surface). */
export interface VaultSessionStatus {
  sessionId: string;
  dir: string;
  desc: string;
  protected: boolean;
  mode: VaultMode | null;
  /** Its transcript is gone: the vault's entry is the only copy (neither a link nor a copy of it). */
  onlyCopy: boolean;
  /** Bytes the entry holds (transcript, generations, sidecar). */
  bytes: number;
  /** Why it is not protected, or what to know about it; null when all is well. */
  reason: string | null;
  /** Only a line of sessions.txt that does not parse names it: that line's number. */
  unparsedLine: number | null;
}

/** `vault --json`. */
export interface VaultReport {
  vaultDir: string;
  enabled: boolean;
  sessions: VaultSessionStatus[];
  totals: {
    sessions: number;
    protected: number;
    unprotected: number;
    linked: number;
    copied: number;
    /** Sessions whose transcript is gone: the vault holds the only copy. */
    onlyCopies: number;
    /** Bytes in the vault, each hard-linked file counted once. */
    bytes: number;
    /** Bytes the vault costs on disk beyond the transcripts: its copies. */
    extraBytes: number;
  };
}

/** Print the vault's status; exit 0 even when some sessions are unprotected. */
export function runVaultStatus(ctx: AppContext, options: { json: boolean }): number {
  const report = collectVaultReport(ctx);
  const setting = vaultSetting(ctx).error;
  if (setting !== null) ctx.err.line(`  ${setting}`, "yellow");
  if (options.json) {
    ctx.out.line(safeJson(report, 2));
    return ExitCode.ok;
  }
  ctx.out.line(`  Vault: ${report.vaultDir}${report.enabled ? "" : ` (off: ${VAULT_ENV}=off)`}`);
  // Each by its list number, the one `claudecm restore N` takes; the rest are archived.
  const numbers = readListNumbers(ctx);
  for (const s of report.sessions) {
    const how = s.protected
      ? `${s.onlyCopy ? "only copy" : s.mode} ${formatSize(s.bytes)}`
      : "NOT protected";
    const number = numbers.get(s.sessionId);
    const place = number !== undefined
      ? `#${number}`
      : s.unparsedLine !== null
      ? "unlisted"
      : "archived";
    ctx.out.line(
      `  ${s.protected ? "ok " : "!! "} ${place} ${s.desc}  [${how}]`,
      s.protected ? undefined : "yellow",
    );
    if (s.reason !== null) ctx.out.line(`       ${s.reason}`, "darkGray");
  }
  const t = report.totals;
  ctx.out.line();
  ctx.out.line(
    `  ${t.protected} of ${t.sessions} sessions protected (${t.linked} by hard link, ` +
      `${t.copied} by copy${t.onlyCopies > 0 ? `, ${t.onlyCopies} the only copy left` : ""}); ` +
      `the vault holds ${formatSize(t.bytes)}, ` +
      `${formatSize(t.extraBytes)} of it extra on disk.`,
  );
  if (vaultSetting(ctx).mode === "copy") {
    if (t.linked > 0) {
      ctx.out.line(
        `  ${t.linked} ${t.linked === 1 ? "entry is" : "entries are"} still hard links, made ` +
          `before ${VAULT_ENV}=copy: a transcript cut short in place takes ` +
          `${t.linked === 1 ? "it" : "them"} with it; claudecm vault sync makes copies.`,
        "yellow",
      );
    }
  } else if (t.copied > 0) {
    ctx.out.line(
      "  Copy mode: hard links could not be made (the vault is on another file system or volume,\n" +
        "  or links are refused there); copies cost disk space and follow appends at each sync.",
      "darkGray",
    );
  }
  return ExitCode.ok;
}

/** The vault's state for every registered session. Reads only. */
export function collectVaultReport(ctx: AppContext): VaultReport {
  const registry = readRegistry(ctx.paths);
  // The sessions the vault keeps: lines that do not parse name some too (issue 30 item 13).
  const sessions = vaultedSessions(registry);
  const rows = new Set(
    [...mainSessions(registry), ...archivedSessions(registry)].map((session) => session.guid),
  );
  const seen = new Set<string>();
  const totals = {
    sessions: 0,
    protected: 0,
    unprotected: 0,
    linked: 0,
    copied: 0,
    onlyCopies: 0,
    bytes: 0,
    extraBytes: 0,
  };
  const statuses = sessions.map((session) => {
    const status = sessionStatus(ctx, session, (info) => {
      const key = `${info.dev}:${info.ino}`;
      if (info.ino !== null && seen.has(key)) return;
      seen.add(key);
      totals.bytes += info.size;
      if (info.nlink === 1) totals.extraBytes += info.size;
    });
    status.unparsedLine = rows.has(session.guid)
      ? null
      : malformedLineNaming(registry, session.guid)?.lineNumber ?? null;
    totals.sessions++;
    if (status.protected) totals.protected++;
    else totals.unprotected++;
    // The only copy of a gone transcript tells nothing of whether links can be made.
    if (status.mode === "link" && !status.onlyCopy) totals.linked++;
    if (status.mode === "copy" && !status.onlyCopy) totals.copied++;
    if (status.onlyCopy) totals.onlyCopies++;
    return status;
  });
  return {
    vaultDir: ctx.paths.vaultDir,
    enabled: vaultEnabled(ctx),
    sessions: statuses,
    totals,
  };
}

function sessionStatus(
  ctx: AppContext,
  session: Session,
  count: (info: Deno.FileInfo) => void,
): VaultSessionStatus {
  const base = { sessionId: session.guid, dir: session.dir, desc: session.desc };
  const vault = vaultEntryFor(ctx.paths, session);
  // The transcript its entry was made from: under the same key as the entry.
  const sourceFiles = vault === null || vault.folder === vaultFilesFor(ctx.paths, session).folder
    ? sessionFilesFor(ctx.paths, session)
    : sessionFilesIn(
      ctx.paths,
      ctx.paths.path.join(ctx.paths.projectsDir, ctx.paths.path.basename(vault.folder)),
      session.guid,
    );
  const source = fileInfoOrNull(sourceFiles.transcript);
  const kept = vault === null ? null : fileInfoOrNull(vault.transcript);
  if (vault === null || kept === null) {
    const reason = source === null
      ? missingReason(ctx, session)
      : vaultEnabled(ctx)
      ? "not in the vault yet: run claudecm vault sync"
      : `the vault is off (${VAULT_ENV}=off)`;
    return {
      ...base,
      protected: false,
      mode: null,
      onlyCopy: false,
      bytes: 0,
      reason,
      unparsedLine: null,
    };
  }
  let bytes = 0;
  for (const file of vaultEntryFiles(vault)) {
    const info = Deno.statSync(file);
    bytes += info.size;
    count(info);
  }
  // Copy mode asks whether any file of the entry still shares its source's bytes.
  const mode: VaultMode = source !== null && sharesAFile(sourceFiles, vault) ? "link" : "copy";
  let reason: string | null = null;
  if (source === null) {
    reason = "its transcript is gone; the vault has it: claudecm restore " + session.guid;
  } else if (mode === "copy" && kept.size < source.size) {
    reason = "the copy is behind: run claudecm vault sync";
  } else if (mode === "link" && vaultSetting(ctx).mode === "copy") {
    reason = "still a hard link (made before copy mode): claudecm vault sync makes it a copy";
  }
  return {
    ...base,
    protected: true,
    mode,
    onlyCopy: source === null,
    bytes,
    reason,
    unparsedLine: null,
  };
}

/** Whether the transcript or a sidecar file of entry `vault` is its source's own file. */
function sharesAFile(source: SessionFiles, vault: SessionFiles): boolean {
  const pairs = [[source.transcript, vault.transcript]];
  for (const file of filesUnder(vault.sidecar)) {
    pairs.push([join(source.sidecar, relative(vault.sidecar, file)), file]);
  }
  return pairs.some(([from, kept]) => {
    const a = fileInfoOrNull(from);
    const b = fileInfoOrNull(kept);
    return a !== null && b !== null && sameInode(a, b);
  });
}

function missingReason(ctx: AppContext, session: Session): string {
  const located = locateTranscript(ctx.paths, session);
  if (located.status === "found") {
    return `not in the vault yet (its transcript is in another project folder, ${located.path}): ` +
      "run claudecm vault sync";
  }
  if (located.status === "unreadable") return `its transcript cannot be read: ${located.error}`;
  // Liveness before "missing" (issue 17 item 5): the transcript comes with the first message.
  if (isSessionLive(ctx.paths, session.guid)) {
    return "open in a claude window that has not saved its first message yet";
  }
  return "no transcript anywhere (never written, or deleted before the vault had it)";
}

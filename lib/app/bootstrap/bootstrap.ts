/**
 * Bootstrap (spec 4 and 5.0), run by the commands that manage the registry
 * and launch claude. Read-only commands (recover, doctor, `list --json`...)
 * never call it.
 *
 * @module
 */

import { type AppContext, statusOut } from "../context.ts";
import { hostnameFallback, readMachineName } from "./machine_name.ts";

export { hostnameFallback, readMachineName };
import { ensureCleanupPeriod } from "./settings.ts";
import { syncVault } from "../vault/vault_sync.ts";
import { writeFileAtomic } from "../../store/atomic_write.ts";
import { backupRegistry } from "../../store/backups.ts";
import { readRegistry } from "../../store/registry_store.ts";
import { environmentUserError, errorMessage, UserError } from "../../core/errors.ts";
import { isNoRoom, isWriteRefusal } from "../../core/write_refusal.ts";
import { archivedSessions, isSessionId, mainSessions } from "../../core/registry.ts";
import { cleanName } from "../../core/safe_text.ts";
import { probePath } from "../../core/fs_checks.ts";
import {
  createLocateCache,
  type LocateCache,
  locateTranscript,
  transcriptInOwnFolder,
} from "../../core/transcript_location.ts";

/** Options for {@linkcode bootstrap}. */
export interface BootstrapOptions {
  /** False for commands that must never prompt: the hostname is used, not saved. */
  mayPrompt: boolean;
  /** The run's transcript lookups, shared with what the command shows next (the list). */
  locateCache?: LocateCache;
  /** Stdout carries the command's JSON: the bootstrap's notes go to stderr. */
  jsonOutput?: boolean;
}

/** What later steps need from the bootstrap. */
export interface BootstrapResult {
  machineName: string;
}

/** Prepare claudecm's state, protect transcripts, settle the machine name, back up the registry. */
export async function bootstrap(
  ctx: AppContext,
  options: BootstrapOptions,
): Promise<BootstrapResult> {
  // A partial mitigation for Claude Code's idle-timeout bug; silent by design.
  ctx.setEnv("CLAUDE_CODE_REMOTE_SEND_KEEPALIVES", "1");
  const { paths } = ctx;
  const writable = prepareStateDir(ctx);
  if (await ensureCleanupPeriod(paths, ctx.now())) {
    (options.jsonOutput ? ctx.err : statusOut(ctx)).line(
      "  Protected session transcripts from Claude Code's 30-day auto-delete.",
      "cyan",
    );
  }
  // Where nothing can be saved, a typed machine name would be lost: use the hostname.
  const machineName = settleMachineName(ctx, { mayPrompt: options.mayPrompt && writable });
  if (writable) {
    // Before the vault, which keeps a session's files under its row's folder.
    await followClaudeMoves(ctx, options.locateCache ?? createLocateCache());
    // Every registered session, before anything this run does can lose one (issue 20).
    syncVault(ctx);
  }
  return { machineName };
}

/**
 * Create `~/.claudecm` and `backup/`, touch the registry so later reads do
 * not fail, and back it up (spec 4 steps 2-3, 5.0). A disk that refuses
 * writes (permissions, read-only, full) gets one yellow warning and the
 * command goes on, so `list` still shows what is there; returns whether the
 * state directory took the writes. Any other failure (sessions.txt is a
 * folder...) is thrown for main to report.
 */
function prepareStateDir(ctx: AppContext): boolean {
  const { paths } = ctx;
  let refusal: unknown = null;
  // A pipe or a device at sessions.txt: opening it to write would wait for ever.
  const registry = probePath(paths.registryFile);
  if (registry.kind === "other") {
    throw new UserError(`${paths.registryFile} is not a regular file; move it away`);
  }
  // A folder, said here before any note: not every OS refuses the empty append below (wine opens
  // a folder for it), and one that does words it its own way (EISDIR, "access denied").
  if (registry.kind === "directory") {
    throw new UserError(
      `${paths.registryFile} is a folder where claudecm needs a file; move it away`,
    );
  }
  try {
    Deno.mkdirSync(paths.backupDir, { recursive: true });
    Deno.writeFileSync(paths.registryFile, new Uint8Array(), { append: true, create: true });
  } catch (error) {
    if (!isWriteRefusal(error)) throw error;
    refusal = error;
  }
  // A full disk refuses every write of this run; a backup folder closed to us, only the backup.
  const backupRefusal = refusal ?? backupRegistry(paths, ctx.now());
  if (refusal !== null || (backupRefusal !== null && isNoRoom(backupRefusal))) {
    ctx.err.line(`  Nothing can be saved in this run: ${refusalText(backupRefusal)}`, "yellow");
    return false;
  }
  if (backupRefusal !== null && isWriteRefusal(backupRefusal)) {
    ctx.err.line(`  sessions.txt could not be backed up: ${refusalText(backupRefusal)}`, "yellow");
  }
  return true;
}

function refusalText(refusal: unknown): string {
  return environmentUserError(refusal)?.message ?? errorMessage(refusal);
}

/**
 * Rows of sessions claude moved to another folder (`/cd`, issue 21) follow
 * them. A stat per row tells the few whose transcript left its own project
 * folder; only for one found in another folder is the transcript read, and
 * its reader loaded. A failure is one yellow line: the command goes on with
 * the rows as they are.
 */
async function followClaudeMoves(ctx: AppContext, cache: LocateCache): Promise<void> {
  // A registry that cannot be read is the command's own error, not a failure to follow.
  const registry = readRegistry(ctx.paths);
  try {
    const strays = [...mainSessions(registry), ...archivedSessions(registry)].filter((session) =>
      isSessionId(session.guid) && !transcriptInOwnFolder(ctx.paths, session, cache) &&
      locateTranscript(ctx.paths, session, cache).status === "found"
    );
    if (strays.length === 0) return;
    const { followRelocations } = await import("../move/relocation.ts");
    await followRelocations(ctx, strays, cache);
  } catch (error) {
    ctx.err.line(`  Could not follow sessions Claude moved: ${errorMessage(error)}`, "yellow");
  }
}

/**
 * Save a machine name typed by the user, cleaned as every stored name is
 * (it goes into each session's `-n` name); returns the name saved, null
 * when nothing of it is left to save.
 */
export function saveMachineName(ctx: AppContext, typed: string): string | null {
  const name = cleanName(typed);
  if (name === "") return null;
  try {
    Deno.mkdirSync(ctx.paths.cmHome, { recursive: true });
    // A kill mid-write must not leave an empty name that every later run shows.
    writeFileAtomic(ctx.paths.machineNameFile, `${name}\n`);
  } catch (error) {
    throw new MachineNameNotSaved(name, `${ctx.paths.machineNameFile}: ${errorMessage(error)}`);
  }
  return name;
}

/** The name could not be written (a link into a folder that is gone, a full disk): used unsaved. */
export class MachineNameNotSaved extends Error {
  constructor(readonly machineName: string, why: string) {
    super(`the machine name could not be saved (${why}); it is used for this run only`);
  }
}

function settleMachineName(ctx: AppContext, options: BootstrapOptions): string {
  const saved = readMachineName(ctx);
  if (saved !== null) return saved;
  if (!options.mayPrompt) return hostnameFallback(ctx);
  // Beside the question, which is on stderr when stdout is not a terminal.
  const notes = statusOut(ctx);
  notes.line();
  const answer = ctx.prompter.ask("  Machine name for remote display (e.g. desktop, laptop): ");
  if (answer === null) return hostnameFallback(ctx);
  try {
    const name = saveMachineName(ctx, answer) ?? saveMachineName(ctx, hostnameFallback(ctx));
    if (name !== null) notes.line(`  Saved: ${name}`);
  } catch (error) {
    if (!(error instanceof MachineNameNotSaved)) throw error;
    ctx.err.line(`  ${error.message}`, "yellow");
    return error.machineName;
  }
  return readMachineName(ctx) ?? hostnameFallback(ctx);
}

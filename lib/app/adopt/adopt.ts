/**
 * `claudecm adopt`: bring the sessions Claude Code has, and the registry
 * does not, under the registry. A candidate is a top-level transcript whose
 * session is not registered (main or archived), that holds a conversation,
 * was not written by `claude -p` (claudecm's own helper calls), and whose
 * folder still exists. Adopted rows go below the existing ones, newest
 * first, named by their custom title, else Claude's title, else the first
 * prompt; all through the one registry writer, which re-checks under its
 * lock so nothing is added twice.
 *
 * @module
 */

import type { AppContext } from "../context.ts";
import { bootstrap } from "../bootstrap/bootstrap.ts";
import { changeRegistry } from "../registry.ts";
import { syncVault } from "../vault/vault_sync.ts";
import { ExitCode } from "../../core/errors.ts";
import { folderDefaultName } from "../../core/format.ts";
import { isDirectory, isFile, readDirOrEmpty, subdirectoryNames } from "../../core/fs_checks.ts";
import { leafName } from "../../core/paths.ts";
import {
  findSession,
  malformedLineNaming,
  namedSessionIds,
  type Session,
  transcriptSessionId,
} from "../../core/registry.ts";
import { appendSessions } from "../../core/registry_ops.ts";
import { readRegistry } from "../../store/registry_store.ts";
import { listAllTranscripts } from "../../transcript/all_transcripts.ts";
import { isNoSession, readSessionFacts } from "../../transcript/session_facts.ts";
import { ownMachineNames } from "../bootstrap/machine_name.ts";
import { titleOf } from "../../transcript/session_title.ts";
import { askAdoptPicks, printCandidates, printOutcome } from "./adopt_view.ts";
import type { AdoptCandidate, Adopted, AdoptSkip } from "./adopt_model.ts";
import { nothingSaves } from "../save_check.ts";
import { folderOfFacts } from "../find/results.ts";
import { safeJson } from "../../core/safe_text.ts";
import { compareText } from "../../core/compare_text.ts";

/** What `adopt` was asked. */
export interface AdoptOptions {
  all?: boolean;
  dryRun?: boolean;
  json?: boolean;
}

/** Run `adopt`; returns the exit code. */
export async function runAdopt(ctx: AppContext, options: AdoptOptions): Promise<number> {
  const { candidates, skipped } = listAdoptable(ctx);
  if (!options.json) printCandidates(ctx, { candidates, skipped });
  let chosen: AdoptCandidate[] = [];
  if (options.all || options.dryRun) chosen = candidates;
  else if (!options.json && ctx.interactive && candidates.length > 0) {
    // Every pick is a row to write: not asked for when none could be written.
    const refusal = nothingSaves(ctx);
    if (refusal !== null) throw refusal;
    chosen = askAdoptPicks(ctx, candidates);
  }
  const write = !options.dryRun && chosen.length > 0;
  const adopted = write
    ? await adopt(ctx, chosen, {
      // The machine name is asked only of a person who can see the question.
      mayPrompt: !options.json && ctx.interactive,
      jsonOutput: options.json,
    })
    : { added: [], gone: 0 };
  // An adopt killed after it wrote its rows left them out of the vault: the rerun, which finds
  // nothing to add, finishes that (as every command that writes keeps the vault in step).
  if (options.all && !options.dryRun && !write) syncVault(ctx);
  if (options.json) {
    ctx.out.line(
      safeJson({ candidates, skipped, adopted: adopted.added, dryRun: !!options.dryRun }, 2),
    );
    return ExitCode.ok;
  }
  if (candidates.length > 0) {
    printOutcome(ctx, { dryRun: !!options.dryRun, wrote: write, chosen: chosen.length, adopted });
  }
  return ExitCode.ok;
}

/** The sessions on disk the registry does not know, newest first. */
export function listAdoptable(ctx: AppContext): {
  candidates: AdoptCandidate[];
  skipped: AdoptSkip[];
} {
  // A line that does not parse still names its session: never a second row for it.
  const registry = readRegistry(ctx.paths);
  const named = namedSessionIds(registry);
  const machine = ownMachineNames(ctx);
  const candidates: AdoptCandidate[] = [];
  const skipped: AdoptSkip[] = [...linkedTranscripts(ctx, named)];
  for (const file of listAllTranscripts(ctx.paths.projectsDir)) {
    if (file.subagent || file.sessionId === undefined || file.size === 0) continue;
    if (named.has(file.sessionId)) {
      const line = malformedLineNaming(registry, file.sessionId);
      if (line !== undefined && findSession(registry, file.sessionId) === undefined) {
        skipped.push({
          sessionId: file.sessionId,
          dir: ctx.paths.path.dirname(file.path),
          reason: `line ${line.lineNumber} of the session list names it but does not parse ` +
            `(${line.reason}); fix that line to list it (the vault keeps it meanwhile)`,
        });
      }
      continue;
    }
    let facts;
    try {
      facts = readSessionFacts(file.path);
    } catch {
      continue; // Unreadable now; it stays where it is.
    }
    const dir = folderOfFacts(facts);
    // No real prompt (only a `/clear`, as `/clear` leaves one), or a `claude -p` call: no session.
    if (isNoSession(facts)) continue;
    if (dir === undefined) continue;
    if (/[|\r\n]/.test(dir)) {
      skipped.push({
        sessionId: file.sessionId,
        dir,
        reason: "its folder's path contains '|' or a line break, which the list cannot hold",
      });
      continue;
    }
    if (!isDirectory(dir)) continue;
    candidates.push({
      sessionId: file.sessionId,
      dir,
      title: titleOf(facts, { machine }) ?? folderDefaultName(leafName(ctx.paths, dir)),
      lastActivity: facts.lastActivity ??
        (file.mtimeMs ? new Date(file.mtimeMs).toISOString() : null),
      size: file.size,
      transcript: file.path,
    });
  }
  // One candidate a session, whatever number of project folders hold a copy: the longest.
  const longest = new Map<string, AdoptCandidate>();
  for (const candidate of candidates) {
    const kept = longest.get(candidate.sessionId);
    if (kept === undefined || candidate.size > kept.size) {
      longest.set(candidate.sessionId, candidate);
    }
  }
  const unique = [...longest.values()].sort((a, b) =>
    compareText(b.lastActivity ?? "", a.lastActivity ?? "") ||
    compareText(a.sessionId, b.sessionId)
  );
  return { candidates: unique, skipped };
}

/**
 * Transcripts that are symbolic links, which the listing of transcripts
 * leaves out (it reads regular files only): said, never silently missing.
 */
function linkedTranscripts(ctx: AppContext, named: Set<string>): AdoptSkip[] {
  const { join } = ctx.paths.path;
  const skipped: AdoptSkip[] = [];
  for (const key of subdirectoryNames(ctx.paths.projectsDir).sort(compareText)) {
    const folder = join(ctx.paths.projectsDir, key);
    for (const entry of readDirOrEmpty(folder)) {
      const sessionId = transcriptSessionId(entry.name);
      if (!entry.isSymlink || sessionId === null || named.has(sessionId)) continue;
      const path = join(folder, entry.name);
      const target = linkTarget(path);
      skipped.push({
        sessionId,
        dir: folder,
        reason: isFile(path)
          ? `its transcript is a symbolic link (to ${target}); adopt takes regular files only: ` +
            "put the file itself there to adopt it"
          : `its transcript is a symbolic link to nothing (${target} is gone)`,
      });
    }
  }
  return skipped;
}

function linkTarget(path: string): string {
  try {
    return Deno.readLinkSync(path);
  } catch {
    return "?";
  }
}

/**
 * Register the chosen sessions; returns the ids this run added, decided under
 * the lock: another window's adopt may have added some of them meanwhile, and
 * its quarantine (the orphan table's `q`) or `move` may have taken a
 * transcript away, which is then not registered (a row for nothing).
 */
async function adopt(
  ctx: AppContext,
  chosen: AdoptCandidate[],
  options: { mayPrompt: boolean; jsonOutput?: boolean },
): Promise<Adopted> {
  await bootstrap(ctx, options);
  const adopted: Adopted = { added: [], gone: 0 };
  await changeRegistry(ctx, (registry) => {
    const present = chosen.filter((c) => isFile(c.transcript));
    const named = namedSessionIds(registry);
    const rows: Session[] = present
      .filter((c) => !named.has(c.sessionId))
      .map((c) => ({ guid: c.sessionId, dir: c.dir, desc: c.title, tokens: "" }));
    adopted.added = rows.map((row) => row.guid);
    adopted.gone = chosen.length - present.length;
    return appendSessions(registry, rows);
  });
  syncVault(ctx, { guids: adopted.added });
  return adopted;
}

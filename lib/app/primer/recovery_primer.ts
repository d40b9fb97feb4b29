/**
 * Resolve-ResumeOrRecover (spec 11.7): before resuming, check the transcript
 * is there. When it is gone (Claude Code's 30-day clean-up, most likely),
 * offer a fresh session in the folder, a recovery prompt written by
 * `claude -p` from what survived (memory, subagent transcripts, the code),
 * or cancel.
 *
 * @module
 */

import { printFailure } from "../../platform/claude.ts";
import { visibleText } from "../../core/safe_text.ts";
import type { AppContext } from "../context.ts";
import type { LaunchSettings } from "../launch/launch_setup.ts";
import { discardPrintSession, printRunStart } from "../launch/print_session.ts";
import { errorMessage } from "../../core/errors.ts";
import { isDirectory } from "../../core/fs_checks.ts";
import { projectDirFor } from "../../core/paths.ts";
import { isSessionLive } from "../../platform/live_sessions.ts";
import type { Session } from "../../core/registry.ts";
import { buildRecoveryMetaPrompt, isoDay } from "../../core/recovery_prompt.ts";
import { getSessionInfo } from "../../core/session_info.ts";
import { locateTranscript } from "../../core/transcript_location.ts";
import { realTarget, writeFileAtomic } from "../../store/atomic_write.ts";
import { rotateToOld } from "../../store/rotate.ts";

/** What to do next: resume as asked, start a fresh session in the folder, or nothing. */
export type Resolution =
  | { action: "normal" }
  | { action: "fresh" }
  | { action: "cancel"; failed: boolean };

/** How long `claude -p` may take to write the recovery prompt. */
const PRIMER_TIMEOUT_MS = 10 * 60_000;

/** Decide how to resume `session`, asking when its transcript is gone. */
export async function resolveResumeOrRecover(
  ctx: AppContext,
  { settings, session }: { settings: LaunchSettings; session: Session },
): Promise<Resolution> {
  // Only "found nowhere" means lost (DESIGN.md 5.11): claude finds a transcript in any folder,
  // and one that could not be looked at is resumed as usual (the resume path reports it).
  // Liveness first (issue 17 item 5): a claude that has not yet written the first message
  // has no transcript, and its session is not gone; the resume path asks about the window.
  if (isSessionLive(ctx.paths, session.guid)) return { action: "normal" };
  // A symbolic link to nothing is as lost (issue 30 item 6): claude cannot resume it either.
  const located = locateTranscript(ctx.paths, session);
  const brokenLink = located.status === "unreadable" && located.brokenLink === true;
  if (located.status !== "missing" && !brokenLink) return { action: "normal" };
  ctx.out.line();
  ctx.out.line(
    brokenLink
      ? `  The transcript of '${session.desc}' is a symbolic link to nothing: ${located.path}.`
      : `  The transcript of '${session.desc}' is gone (most likely Claude Code's 30-day clean-up).`,
    "yellow",
  );
  ctx.out.line("  Its memory and subagent state are intact.", "yellow");
  ctx.out.line();
  ctx.out.line("  1. Start a fresh Claude session in that directory");
  ctx.out.line(
    "  2. Create a recovery-prompt.md file in the project directory, that you can prompt " +
      "Claude to read and execute, with optional edits.",
  );
  ctx.out.line("  3. Cancel");
  const answer = (ctx.prompter.ask("  Choice [1-3]: ") ?? "").trim();
  if (answer === "1") return { action: "fresh" };
  if (answer !== "2") return { action: "cancel", failed: false };
  return await writeRecoveryPrompt(ctx, settings, session);
}

/** Spec 11.7 step 4, option 2. */
async function writeRecoveryPrompt(
  ctx: AppContext,
  settings: LaunchSettings,
  session: Session,
): Promise<Resolution> {
  const { dir } = session;
  if (!isDirectory(dir)) {
    ctx.err.line(`  The session's directory no longer exists: ${dir}`, "red");
    return { action: "cancel", failed: true };
  }
  const promptFile = ctx.paths.path.join(dir, "recovery-prompt.md");
  ctx.out.line("  Generating recovery prompt (this may take a minute)...", "cyan");
  const claude = await ctx.tools.claude();
  const start = printRunStart(ctx, dir);
  // The prompt goes on stdin, never argv; without persistence no transcript is left behind.
  const printed = await claude.print(["--no-session-persistence", ...settings.permissionArgs], {
    cwd: dir,
    prompt: buildRecoveryMetaPrompt(recoveryFacts(ctx, session)),
    timeoutMs: PRIMER_TIMEOUT_MS,
  });
  // Belt and braces (spec 11.7 step 2g): an older claude may persist the run despite the flag.
  await discardPrintSession(ctx, start, { dir, guid: printed.sessionId, what: "the recovery run" });
  const text = printed.result?.trim() ?? "";
  if (printed.isError || text === "") {
    const why = printed.isError ? printFailure(printed) : "claude gave an empty answer";
    ctx.out.line(`  Recovery prompt generation failed: ${visibleText(why)}.`, "red");
    return { action: "cancel", failed: true };
  }
  try {
    // Rotated only once the new prompt is whole on disk (the spec rotates first): a failed
    // generation or a full disk leaves the user's file where it was.
    writeFileAtomic(promptFile, `${text}\n`, {
      beforeRename: () => {
        // The file the new text replaces is rotated, not a link to it: a linked prompt keeps its
        // link, the old text goes beside the file it was in.
        rotateToOld(realTarget(promptFile));
        return true;
      },
    });
  } catch (error) {
    ctx.err.line(`  Could not write ${promptFile}: ${errorMessage(error)}`, "red");
    return { action: "cancel", failed: true };
  }
  ctx.out.line(`  Recovery prompt saved: ${promptFile}`, "green");
  ctx.out.line(
    "  Edit it if you want, or just tell Claude to use it as the first message of the conversation.",
  );
  ctx.out.line("  Opening a fresh Claude session in that directory now...", "cyan");
  return { action: "fresh" };
}

function recoveryFacts(ctx: AppContext, session: Session) {
  const join = ctx.paths.path.join;
  const folder = projectDirFor(ctx.paths, session.dir);
  const subagentsDir = join(folder, session.guid, "subagents");
  const subagents: Date[] = [];
  try {
    for (const entry of Deno.readDirSync(subagentsDir)) {
      if (!entry.isFile || !entry.name.endsWith(".jsonl")) continue;
      subagents.push(Deno.statSync(join(subagentsDir, entry.name)).mtime ?? new Date(0));
    }
  } catch {
    // No subagent state survived.
  }
  const latest = subagents.sort((a, b) => b.getTime() - a.getTime())[0];
  const info = getSessionInfo(ctx.paths, session, { now: ctx.now() });
  return {
    dir: session.dir,
    desc: session.desc,
    memoryDir: join(folder, "memory"),
    subagentsDir,
    subagentCount: subagents.length,
    subagentLatest: latest === undefined ? "unknown" : isoDay(latest),
    tokensText: session.tokens === "" ? "unknown token count" : `${session.tokens} tokens`,
    dateText: info.date === null ? "unknown" : isoDay(info.date),
  };
}

/**
 * A history of several projects for `find` and `adopt` tests. Each word an
 * assertion looks for appears in exactly one place:
 *
 * - alpha (registered as #1, active 2026-11-29): `quokka` only in assistant
 *   text, `wombatdb` only in a Bash command, `zebrafish` only in tool output;
 * - beta (not registered, custom title, active 2026-10-01): `platypus` in a
 *   prompt, `narwhal` only in its subagent's transcript, `manatee` only in an
 *   older version's top-level `agent-*.jsonl` (and in a stray non-session file);
 * - both: `ocelot`, in a prompt each.
 *
 * @module
 */

import { join } from "node:path";
import type { AppContext } from "../../lib/app/context.ts";
import { TranscriptBuilder } from "../../fixtures/transcripts/builder.ts";
import { keyDirOf, makeFolder, save } from "./projects.ts";
import { writeRegistryText } from "./claude_home.ts";

/** What the history holds, for assertions. */
export interface FindHistory {
  alpha: { cwd: string; dir: string; id: string; path: string };
  beta: { cwd: string; dir: string; id: string; path: string; subagent: string };
}

/** Write the history under `home` (the context's HOME) and register alpha. */
export function writeFindHistory(ctx: AppContext, home: string): FindHistory {
  const alphaCwd = makeFolder(home, "src/alpha");
  const betaCwd = makeFolder(home, "src/beta");
  const alphaDir = keyDirOf(ctx, alphaCwd);
  const betaDir = keyDirOf(ctx, betaCwd);
  const alpha = new TranscriptBuilder({ cwd: alphaCwd, start: new Date("2026-11-29T10:00:00Z") })
    .prompt("Set up the database for ocelot")
    .text("Here is the quokka migration plan.")
    .tool("Bash", { command: "pg_dump --schema-only wombatdb" }, "zebrafish ready")
    .text("Done.")
    .turnEnd()
    .metadata({ aiTitle: "Database setup", lastPrompt: "Set up the database for ocelot" });
  const beta = new TranscriptBuilder({ cwd: betaCwd, start: new Date("2026-10-01T10:00:00Z") })
    .metadata({ customTitle: "Platypus deploy", agentName: "Platypus deploy" })
    .prompt("deploy the platypus service, ocelot edition")
    .tool("Task", { description: "check the logs", prompt: "look at the logs" }, "all clear")
    .text("Deployed.")
    .turnEnd()
    .metadata({ aiTitle: "Deploying the service", lastPrompt: "deploy the platypus service" });
  const alphaPath = save(alphaDir, alpha);
  const betaPath = save(betaDir, beta);
  const agentDir = join(betaDir, beta.sessionId, "subagents");
  Deno.mkdirSync(agentDir, { recursive: true });
  const agent = new TranscriptBuilder({
    cwd: betaCwd,
    sessionId: beta.sessionId,
    start: new Date("2026-10-01T10:00:05Z"),
  }).prompt("look at the logs").text("The narwhal service logs are clean.");
  const subagent = agent.write(join(agentDir, "agent-a1b2c3.jsonl"));
  new TranscriptBuilder({
    cwd: betaCwd,
    sessionId: beta.sessionId,
    start: new Date("2026-10-01T10:01:00Z"),
  })
    .prompt("check the manatee feed").text("Checked.").write(join(betaDir, "agent-old1.jsonl"));
  new TranscriptBuilder({ cwd: betaCwd, start: new Date("2026-10-01T10:02:00Z") })
    .prompt("manatee notes").write(join(betaDir, "notes.jsonl"));
  writeRegistryText(ctx.paths, `${alpha.sessionId}|${alphaCwd}|Alpha work|\n`);
  return {
    alpha: { cwd: alphaCwd, dir: alphaDir, id: alpha.sessionId, path: alphaPath },
    beta: { cwd: betaCwd, dir: betaDir, id: beta.sessionId, path: betaPath, subagent },
  };
}

/**
 * Make every read of `path` after the first `okReads` fail as an I/O error
 * would (on this thread's `Deno.openSync`); returns how many reads were
 * tried so far, and `restore` to undo it.
 */
export function failReadsAfter(
  path: string,
  okReads: number,
): { reads: () => number; restore: () => void } {
  const realOpen = Deno.openSync;
  let reads = 0;
  Deno.openSync = (opened: string | URL, options?: Deno.OpenOptions) => {
    const file = realOpen(opened, options);
    if (String(opened) !== path) return file;
    const readSync = file.readSync.bind(file);
    file.readSync = (buffer: Uint8Array) => {
      if (++reads > okReads) throw new Deno.errors.PermissionDenied("simulated I/O failure");
      return readSync(buffer);
    };
    return file;
  };
  return { reads: () => reads, restore: () => Deno.openSync = realOpen };
}

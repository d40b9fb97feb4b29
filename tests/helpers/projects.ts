/**
 * Claude project dirs in a test's temporary HOME: a real folder to act as the
 * cwd, and transcripts written where Claude Code would put them.
 *
 * @module
 */

import { join } from "node:path";
import type { AppContext } from "../../lib/app/context.ts";
import { projectDirFor } from "../../lib/core/paths.ts";
import { resolveRealPath } from "../../lib/core/project_key.ts";
import { type BuilderOptions, TranscriptBuilder } from "../../fixtures/transcripts/builder.ts";

/** Create `<home>/<relative>` and return its realpath (what Claude Code records as cwd). */
export function makeFolder(home: string, relative: string): string {
  const dir = join(home, relative);
  Deno.mkdirSync(dir, { recursive: true });
  return resolveRealPath(dir);
}

/** The project dir Claude Code uses for `cwd`, created. */
export function keyDirOf(ctx: AppContext, cwd: string): string {
  const dir = projectDirFor(ctx.paths, cwd);
  Deno.mkdirSync(dir, { recursive: true });
  return dir;
}

/** A project dir under an arbitrary name (stale encodings, other versions' hashes), created. */
export function namedDir(ctx: AppContext, name: string): string {
  const dir = join(ctx.paths.projectsDir, name);
  Deno.mkdirSync(dir, { recursive: true });
  return dir;
}

/** A finished session: one prompt, a tool call, a reply, the closing metadata. */
export function finishedSession(
  options: BuilderOptions & { title?: string; ask?: string },
): TranscriptBuilder {
  const ask = options.ask ?? "Run the tests and fix what fails.";
  return new TranscriptBuilder(options)
    .prompt(ask)
    .tool("Bash", { command: "deno task test", description: "Run tests" }, "ok | 3 passed")
    .text("All 3 tests pass.")
    .turnEnd()
    .metadata({
      lastPrompt: ask,
      aiTitle: options.title ?? "Run the tests",
      mode: "normal",
      permissionMode: "default",
    });
}

/** Write `builder` as `<dir>/<sessionId>.jsonl` and return the path. */
export function save(dir: string, builder: TranscriptBuilder): string {
  return builder.write(join(dir, `${builder.sessionId}.jsonl`));
}

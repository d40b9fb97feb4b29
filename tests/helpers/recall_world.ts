/**
 * A git repository built by the test and a session transcript that worked
 * in it, for `recall`: the session's writes, edits, removal and commits are
 * really made on disk (so the transcript's hashes and commit ids are true),
 * then the test changes things behind the session's back to make divergences.
 *
 * @module
 */

import { join } from "node:path";
import { TranscriptBuilder } from "../../fixtures/transcripts/builder.ts";
import type { TestContext } from "./test_context.ts";
import { keyDirOf, makeFolder, save } from "./projects.ts";

/** Run git in `dir` with a configuration that ignores the machine's; returns stdout. */
export function git(home: string, dir: string, ...args: string[]): string {
  const output = new Deno.Command("git", {
    args: ["-C", dir, "-c", "user.name=Test", "-c", "user.email=test@example.com", ...args],
    env: {
      HOME: home,
      GIT_CONFIG_NOSYSTEM: "1",
      GIT_CONFIG_GLOBAL: join(home, ".gitconfig-none"),
      GIT_AUTHOR_DATE: "2026-11-28T21:00:00Z",
      GIT_COMMITTER_DATE: "2026-11-28T21:00:00Z",
    },
    stdout: "piped",
    stderr: "piped",
  }).outputSync();
  const text = new TextDecoder();
  if (!output.success) {
    throw new Error(`git ${args.join(" ")} failed: ${text.decode(output.stderr)}`);
  }
  return text.decode(output.stdout).trim();
}

/** A fresh repository at `<home>/<relative>` on branch main with one commit. */
export function makeRepo(home: string, relative: string, files: Record<string, string>): string {
  const repo = makeFolder(home, relative);
  git(home, repo, "init", "-q", "-b", "main");
  for (const [path, text] of Object.entries(files)) writeFile(repo, path, text);
  git(home, repo, "add", "-A");
  git(home, repo, "commit", "-q", "-m", "initial");
  return repo;
}

/** Write `<repo>/<path>`, creating folders. */
export function writeFile(repo: string, path: string, text: string): string {
  const full = join(repo, path);
  Deno.mkdirSync(join(full, ".."), { recursive: true });
  Deno.writeTextFileSync(full, text);
  return full;
}

/** Commit everything staged and unstaged; returns the full commit id. */
export function commitAll(home: string, repo: string, message: string): string {
  git(home, repo, "add", "-A");
  git(home, repo, "commit", "-q", "-m", message);
  return git(home, repo, "rev-parse", "HEAD");
}

/** What `git commit` prints first, the line recall reads the commit id from. */
export function commitLine(branch: string, sha: string, subject: string): string {
  return `[${branch} ${sha.slice(0, 7)}] ${subject}\n 1 file changed, 1 insertion(+)`;
}

export const GREET_WRITTEN =
  'export function greet(name: string): string {\n  return "hello " + name;\n}\n';
export const GREET_OLD = '"hello " + name';
export const GREET_NEW = "`hello, ${name}!`";
export const CONFIG_WRITTEN = "export const port = 3000;\n";

/** The main scenario's session and what it left. */
export interface Scenario {
  repo: string;
  projectDir: string;
  session: TranscriptBuilder;
  transcript: string;
  kept: string;
  reset: string;
}

/**
 * A session that wrote and edited src/greet.ts, wrote src/config.ts, removed
 * old.txt, committed twice, ran `npm test` twice (both failed) and was cut
 * off while `npm run build` ran. After it, src/config.ts was changed and the
 * second commit was reset away.
 */
export function mainScenario(t: TestContext, folder = "work/app"): Scenario {
  const repo = makeRepo(t.home, folder, {
    "README.md": "# app\n",
    "src/config.ts": "export const port = 8080;\n",
    "old.txt": "obsolete\n",
  });
  const greet = writeFile(repo, "src/greet.ts", GREET_WRITTEN.replace(GREET_OLD, GREET_NEW));
  const config = writeFile(repo, "src/config.ts", CONFIG_WRITTEN);
  Deno.removeSync(join(repo, "old.txt"));
  const kept = commitAll(t.home, repo, "add greeting");
  writeFile(repo, "docs/notes.md", "notes\n");
  const reset = commitAll(t.home, repo, "add notes");

  const session = new TranscriptBuilder({ cwd: repo, start: new Date(Date.now() - 3_600_000) })
    .prompt("add a greeting module and commit it")
    .tool("TodoWrite", {
      todos: [
        { content: "Add the greeting module", status: "completed", activeForm: "Adding" },
        { content: "Make the tests pass", status: "in_progress", activeForm: "Fixing" },
        { content: "Update the docs", status: "pending", activeForm: "Updating" },
      ],
    }, "Todos have been modified successfully.")
    .tool("Read", { file_path: join(repo, "README.md") }, "     1\t# app")
    .tool(
      "Write",
      { file_path: greet, content: GREET_WRITTEN },
      `File created successfully at: ${greet}`,
    )
    .tool(
      "Edit",
      { file_path: greet, old_string: GREET_OLD, new_string: GREET_NEW, replace_all: false },
      `The file ${greet} has been updated successfully.`,
    )
    .tool(
      "Write",
      { file_path: config, content: CONFIG_WRITTEN },
      `The file ${config} has been updated.`,
    )
    .tool("Bash", { command: "rm old.txt", description: "Remove the old file" }, "")
    .tool(
      "Bash",
      { command: "git add -A && git commit -m 'add greeting'" },
      commitLine("main", kept, "add greeting"),
    )
    .tool(
      "Bash",
      { command: "git add docs && git commit -m 'add notes'" },
      commitLine("main", reset, "add notes"),
    );
  for (let i = 0; i < 2; i++) {
    session.toolUse("Bash", { command: "npm test" })
      .toolResult(
        session.lastToolUseId,
        "Exit code 1\nFAIL src/greet_test.ts: expected 'hello, Ann!'",
        {
          isError: true,
        },
      );
  }
  session.toolUse("Bash", { command: "npm run build" });
  const projectDir = keyDirOf(t.ctx, repo);
  const transcript = save(projectDir, session);

  writeFile(repo, "src/config.ts", "export const port = 9999;\n");
  git(t.home, repo, "reset", "-q", "--soft", "HEAD~1");
  return { repo, projectDir, session, transcript, kept, reset };
}

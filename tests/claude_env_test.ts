// Issue 18 item 6: claudecm started from a shell that Claude Code started (its `!` or Bash tool)
// passed that session's variables on to the claude it launched.
import assert from "node:assert/strict";
import { CLAUDE_SESSION_VARIABLES } from "../lib/platform/claude_env.ts";
import { createLaunchWorld } from "./helpers/launch_world.ts";
import { runClaudecm } from "./helpers/run_cli.ts";
import { createTestContext } from "./helpers/test_context.ts";

/** What the real 2.1.332 put in its tool shell's environment (measured: `!env`). */
const INSIDE_A_SESSION: Record<string, string> = {
  CLAUDECODE: "1",
  CLAUDE_CODE_ENTRYPOINT: "cli",
  CLAUDE_CODE_SESSION_ID: "8eab776b-4835-4873-a160-de4173a9f4c9",
  CLAUDE_CODE_CHILD_SESSION: "1",
  CLAUDE_CODE_SESSION_ATTENDED: "1",
  CLAUDE_CODE_CHILD_NOTES_DIR: "/tmp/claude-0/x/started",
  CLAUDE_CODE_EXECPATH: "/usr/lib/claude/claude.exe",
  CLAUDE_CODE_MESSAGING_SOCKET: "/tmp/cc-socks/31400.sock",
  CLAUDE_CODE_MESSAGING_TOKEN: "6a4b16d7058e0d0fd4b6e91d33bf31d0",
  CLAUDE_PID: "31400",
  CLAUDE_EFFORT: "medium",
  AI_AGENT: "claude-code_2-1-332_agent",
};

Deno.test("the session variables of a surrounding Claude Code never reach a claude claudecm starts", async () => {
  const world = createLaunchWorld();
  try {
    world.claudeScenario({ messages: ["hello"] });
    const env = { ...world.env, ...INSIDE_A_SESSION, CLAUDE_CODE_TMPDIR: world.dir };
    const result = await runClaudecm(["new"], { env, cwd: world.project, stdin: "\n" });
    assert.equal(result.code, 0, result.stderr);
    const runs = world.argv("claude");
    assert.ok(runs.some(({ argv }) => argv.includes("--session-id")), "claude was launched");
    assert.ok(runs.some(({ argv }) => argv[0] === "--version"), "and probed");
    for (const run of runs) {
      const names = run.claudeEnv!;
      for (const name of Object.keys(INSIDE_A_SESSION)) {
        assert.ok(!names.includes(name), `${name} reached claude ${run.argv.join(" ")}`);
      }
      // The user's own Claude Code settings stay.
      assert.ok(names.includes("CLAUDE_CODE_TMPDIR") && names.includes("CLAUDE_CONFIG_DIR"));
    }
  } finally {
    world.cleanup();
  }
});

Deno.test("claude -p runs (refresh, recovery prompt, rescue summaries) start outside the session too", async () => {
  const world = createLaunchWorld();
  const t = createTestContext({ env: { ...world.env, ...INSIDE_A_SESSION }, cwd: world.project });
  try {
    await t.ctx.tools.claude().print([], { cwd: world.project, prompt: "hi\n" });
    const [run] = world.argv("claude").filter(({ argv }) => argv.includes("-p"));
    assert.ok(run !== undefined);
    for (const name of CLAUDE_SESSION_VARIABLES) {
      assert.ok(!run.claudeEnv!.includes(name), name);
    }
  } finally {
    t.cleanup();
    world.cleanup();
  }
});

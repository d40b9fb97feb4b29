// Issue 30 item 12: every CLAUDE_* variable claude 2.1.332 reads is passed or
// stripped on purpose (lib/platform/claude_env.ts); the list of names is
// fixtures/claude-env-2.1.332.txt, which tests/real_claude_env_contract_test.ts
// checks against the real CLI's bundle.
import assert from "node:assert/strict";
import { CLAUDE_SESSION_VARIABLES, passesToClaude } from "../lib/platform/claude_env.ts";
import { createLaunchWorld } from "./helpers/launch_world.ts";
import { runClaudecm } from "./helpers/run_cli.ts";
import { pinnedClaudeVariables } from "./helpers/claude_strings.ts";

/** Set by a running claude for its own tool shells or children, not read from its registry. */
const SET_NOT_READ = [
  "CLAUDECODE",
  "AI_AGENT",
  "CLAUDE_CODE_EXECPATH",
  "CLAUDE_PID",
  "CLAUDE_EFFORT",
  "CLAUDE_BG_GATEWAY_ROUTED",
  "CLAUDE_BG_CRASH_UPLOAD_JUDGED",
];

Deno.test("claude_env: every variable stripped is one claude 2.1.332 reads or sets", () => {
  const pinned = new Set(pinnedClaudeVariables());
  assert.ok(pinned.size > 900, "the pinned list is whole");
  for (const name of CLAUDE_SESSION_VARIABLES) {
    assert.ok(pinned.has(name) || SET_NOT_READ.includes(name), `${name} is no claude variable`);
  }
  assert.equal(new Set(CLAUDE_SESSION_VARIABLES).size, CLAUDE_SESSION_VARIABLES.length);
});

Deno.test("claude_env: one session's, one launch's, one host's variables are stripped; settings pass", () => {
  for (
    const name of [
      "CLAUDE_CODE_REMOTE_SESSION_ID",
      "CLAUDE_CODE_RESUME_SOURCE_ALIVE",
      "CLAUDE_CODE_HOST_CHECKED_FOLDER",
      "claude_code_remote_session_id",
      "CLAUDE_CODE_SESSION_ID",
      "CLAUDE_BG_RENDEZVOUS_SOCK",
    ]
  ) assert.equal(passesToClaude(name), false, name);
  for (
    const name of [
      "CLAUDE_CONFIG_DIR",
      "CLAUDE_CODE_PROJECT_DIR_NAME",
      "CLAUDE_CODE_USE_BEDROCK",
      "CLAUDE_CODE_TMPDIR",
      "CLAUDE_CODE_DISABLE_TERMINAL_TITLE",
      "CLAUDE_CODE_REMOTE",
    ]
  ) assert.equal(passesToClaude(name), true, name);
  const pinned = pinnedClaudeVariables();
  const stripped = pinned.filter((name) => !passesToClaude(name));
  // The decision for all 965: a change here is a decision, made in claude_env.ts.
  assert.equal(stripped.length, CLAUDE_SESSION_VARIABLES.length - SET_NOT_READ.length);
});

Deno.test("a host's session id, its checked folder and a relaunch's source never reach the claude claudecm starts", async () => {
  const world = createLaunchWorld();
  try {
    world.claudeScenario({ messages: ["hello"] });
    const handed = {
      CLAUDE_CODE_REMOTE_SESSION_ID: "session_01abc",
      CLAUDE_CODE_RESUME_SOURCE_ALIVE: '{"parentSessionId":"x"}',
      CLAUDE_CODE_HOST_CHECKED_FOLDER: world.dir,
      CLAUDE_CODE_DISABLE_TERMINAL_TITLE: "1",
    };
    const env = { ...world.env, ...handed };
    const result = await runClaudecm(["new"], { env, cwd: world.project, stdin: "\n" });
    assert.equal(result.code, 0, result.stderr);
    const runs = world.argv("claude");
    assert.ok(runs.some(({ argv }) => argv.includes("--session-id")), "claude was launched");
    for (const run of runs) {
      const names = run.claudeEnv!;
      assert.ok(!names.includes("CLAUDE_CODE_REMOTE_SESSION_ID"), run.argv.join(" "));
      assert.ok(!names.includes("CLAUDE_CODE_RESUME_SOURCE_ALIVE"));
      assert.ok(!names.includes("CLAUDE_CODE_HOST_CHECKED_FOLDER"));
      assert.ok(names.includes("CLAUDE_CODE_DISABLE_TERMINAL_TITLE"), "a setting passes");
    }
  } finally {
    world.cleanup();
  }
});

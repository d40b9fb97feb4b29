// Contract test of the real CLI's `/cd` (issue 21): it moves the session's
// transcript and its `<id>/` folder into the new folder's project key and
// records a `relocated` line there, which lib/transcript/session_folder.ts
// reads (and the fake world in tests/move_resume_e2e_test.ts imitates), and
// which `claudecm move` appends as claude does (issue 30 item 9). Ignored unless
// CLAUDECM_REAL_CLAUDE names the pinned CLI and a pty is at hand.
import assert from "node:assert/strict";
import { projectKey } from "../lib/core/project_key.ts";
import { readSessionFolder } from "../lib/transcript/session_folder.ts";
import {
  createRealWorld,
  eventually,
  HAVE_PTY,
  jsonlFiles,
  readJsonl,
  REAL_CLAUDE,
  seedPrintedSession,
  startInTerminal,
} from "./helpers/real_claude.ts";

const ignore = REAL_CLAUDE === undefined || !HAVE_PTY;

Deno.test({
  name:
    "real claude (pty): /cd moves the transcript to the new folder's key with a relocated record",
  ignore,
  fn: async () => {
    const world = createRealWorld();
    const from = world.project("work/app");
    const to = world.project("work/elsewhere");
    const id = crypto.randomUUID();
    try {
      await seedPrintedSession(world, id, from);
      // The session's `<id>/` folder (a subagent, a saved tool output) goes with it.
      const sidecar = `${world.root}/projects/${projectKey(from)}/${id}`;
      Deno.mkdirSync(`${sidecar}/subagents`, { recursive: true });
      Deno.writeTextFileSync(`${sidecar}/subagents/agent-a1.jsonl`, "{}\n");
      Deno.mkdirSync(`${sidecar}/tool-results`);
      Deno.writeTextFileSync(`${sidecar}/tool-results/toolu_1.txt`, "out\n");
      const terminal = startInTerminal(world, ["--resume", id], from);
      try {
        await new Promise((resolve) => setTimeout(resolve, 3000));
        await terminal.enter(`/cd ${to}`);
        const moved = `${world.root}/projects/${projectKey(to)}/${id}.jsonl`;
        await eventually(
          () => readJsonlOrEmpty(moved).some((line) => line.type === "relocated") || undefined,
          `a relocated record in ${moved}\n${terminal.screen().slice(-2000)}`,
        );
        await terminal.enter("/exit");
        await terminal.status;
      } finally {
        await terminal.stop();
      }
      const moved = `${world.root}/projects/${projectKey(to)}/${id}.jsonl`;
      const record = readJsonl(moved).findLast((line) => line.type === "relocated");
      assert.deepEqual(record, { type: "relocated", sessionId: id, relocatedCwd: to });
      assert.deepEqual(jsonlFiles(`${world.root}/projects/${projectKey(from)}`), []);
      const movedSidecar = `${world.root}/projects/${projectKey(to)}/${id}`;
      assert.equal(Deno.readTextFileSync(`${movedSidecar}/subagents/agent-a1.jsonl`), "{}\n");
      assert.equal(Deno.readTextFileSync(`${movedSidecar}/tool-results/toolu_1.txt`), "out\n");
      assert.deepEqual(readSessionFolder(moved).folder, to);
    } finally {
      world.cleanup();
    }
  },
});

function readJsonlOrEmpty(path: string): Record<string, unknown>[] {
  try {
    return readJsonl(path);
  } catch {
    return [];
  }
}

Deno.test({
  name: "real claude (strings): /cd re-points task-output links, kept under claude-<uid>/…/tasks",
  ignore: REAL_CLAUDE === undefined,
  fn: () => {
    // What lib/store/task_output_links.ts does after a move, as claude's /cd does for its own
    // session: the function, the temp root's name and the stamp, read from the binary.
    const binary = new TextDecoder("latin1").decode(
      Deno.readFileSync(Deno.realPathSync(REAL_CLAUDE!)),
    );
    for (
      const text of [
        "repointTaskOutputSymlinks",
        "return`claude-${process.getuid?.()??0}`",
        'type:"relocated",sessionId:o,relocatedCwd:',
        "CLAUDE_CODE_TMPDIR",
      ]
    ) {
      assert.ok(binary.includes(text), `claude ${text}`);
    }
  },
});

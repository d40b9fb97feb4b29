// Contract tests of Claude Code's own lineage records (issue 30 item 4), which
// lib/transcript/lineage.ts reads: `/branch` is run on the real CLI in a
// pseudo-terminal; `continued-in` (a background hand-off) and
// `fork-context-ref` (a subagent's fork, which needs a model) cannot be made
// offline, so their shapes are pinned from the code in the CLI's bundle.
// Ignored unless CLAUDECM_REAL_CLAUDE names the pinned CLI.
import assert from "node:assert/strict";
import { projectKey } from "../lib/core/project_key.ts";
import { lineageRecords } from "../lib/transcript/lineage.ts";
import { bundleMatches } from "./helpers/claude_strings.ts";
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

Deno.test({
  name:
    "real claude (pty): /branch stamps every copied line with forkedFrom {sessionId, messageUuid}",
  ignore: REAL_CLAUDE === undefined || !HAVE_PTY,
  fn: async () => {
    const world = createRealWorld();
    const cwd = world.project("work");
    const id = crypto.randomUUID();
    const folder = () => `${world.root}/projects/${projectKey(cwd)}`;
    try {
      await seedPrintedSession(world, id, cwd);
      const terminal = startInTerminal(world, ["--resume", id], cwd);
      try {
        await new Promise((resolve) => setTimeout(resolve, 3000));
        await terminal.enter("/branch");
        await eventually(
          () => jsonlFiles(folder()).length === 2 || undefined,
          `a branch beside ${id}.jsonl\n${terminal.screen().slice(-2000)}`,
        );
        await terminal.enter("/exit");
        await terminal.status;
      } finally {
        await terminal.stop();
      }
      const branch = jsonlFiles(folder()).find((name) => name !== `${id}.jsonl`)!;
      const lines = readJsonl(`${folder()}/${branch}`);
      const original = readJsonl(`${folder()}/${id}.jsonl`);
      const stamped = lines.filter((line) => line.forkedFrom !== undefined);
      assert.ok(stamped.length > 0, "the branch's copied lines carry forkedFrom");
      for (const line of stamped) {
        const from = line.forkedFrom as Record<string, unknown>;
        assert.deepEqual(Object.keys(from).sort(), ["messageUuid", "sessionId"]);
        assert.equal(from.sessionId, id);
        assert.equal(from.messageUuid, line.uuid, "a copied line keeps its uuid");
        assert.ok(original.some((o) => o.uuid === from.messageUuid), "the uuid is the source's");
      }
      const records = lineageRecords(`${folder()}/${branch}`);
      assert.deepEqual(records.map((r) => [r.kind, r.sessionId, r.messageUuid]), [
        ["forked-from", id, stamped.at(-1)!.uuid],
      ]);
    } finally {
      world.cleanup();
    }
  },
});

Deno.test({
  name: "real claude: continued-in and fork-context-ref records have the shapes lineage.ts reads",
  ignore: REAL_CLAUDE === undefined,
  fn: () => {
    const [continued, forkRef, forkRefWrite, forkedFrom] = bundleMatches([
      /\{type:"continued-in",timestamp:new Date\(\)\.toISOString\(\),sessionId:[\w$]+,continuedInSessionId:[\w$]+\}/g,
      /\{agentId:[\w$]+,parentSessionId:[\w$]+\(\),parentLastUuid:[\w$]+,contextLength:[\w$.]+\}/g,
      /appendEntry\(\{type:"fork-context-ref",\.\.\.[\w$]+\}/g,
      /forkedFrom:\{sessionId:[\w$]+,messageUuid:[\w$]+\.uuid\}/g,
    ]);
    // continued-in: written into the session that went on elsewhere.
    assert.equal(continued.length, 1, "one continued-in writer");
    // fork-context-ref: the subagent's pointer to its parent session and message.
    assert.equal(forkRef.length, 1, "one fork-context-ref payload");
    assert.equal(forkRefWrite.length, 1, "written as a fork-context-ref line");
    // forkedFrom: /branch's stamp (the pty test above runs it).
    assert.ok(forkedFrom.length >= 1, "the /branch stamp");
  },
});

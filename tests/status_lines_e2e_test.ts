/**
 * With stdout not a terminal, stdout carries only what the user asked for
 * (the list table, a search's matches, a command's own report); claudecm's
 * notes of what it did on the way (the first run's protection of
 * transcripts, a row following a folder claude moved to) go to stderr
 * (issue 31 defect 13's class). One rule: lib/app/context.ts `statusOut`.
 */

import assert from "node:assert/strict";
import { inWorldWithoutCmv } from "./helpers/launch_world.ts";
import { seedSessions } from "./helpers/seed.ts";
import { save } from "./helpers/projects.ts";
import { projectDirFor } from "../lib/core/paths.ts";
import { TranscriptBuilder } from "../fixtures/transcripts/builder.ts";

const PROTECTED = /Protected session transcripts/;

for (
  const { args, answer, unlisted } of [
    { args: ["list"], answer: /1\. Backend/ },
    { args: [], answer: /1\. Backend/ }, // the old form: list mode on piped input
    { args: ["l"], answer: /1\. Backend/ },
    { args: ["search", "-i", "back"], answer: /1\. Backend/ },
    { args: ["adopt", "--all"], answer: /Added 1 session/, unlisted: true },
  ]
) {
  Deno.test(`claudecm ${args.join(" ")} piped, no terminal: the first run's note is on stderr`, async () => {
    await inWorldWithoutCmv(async (world) => {
      seedSessions(world, [{ desc: "Backend" }]);
      if (unlisted) {
        const folder = projectDirFor(world.paths, world.project);
        save(folder, new TranscriptBuilder({ cwd: world.project }).prompt("lost work").text("ok"));
      }
      const result = await world.run(args, { stdin: "" });
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stdout, answer);
      assert.doesNotMatch(result.stdout, PROTECTED);
      assert.match(result.stderr, PROTECTED);
    });
  });
}

/**
 * find's --role and --since, and export's --format, are turned into typed
 * values by the command table's parsers: a flow never sees their text, and
 * a bad value is a usage error before any flow runs (issue 33.1).
 */

import assert from "node:assert/strict";
import type { CommandSpec } from "../lib/cli/command.ts";
import { findCommand } from "../lib/cli/find.ts";
import { exportCommand } from "../lib/cli/export.ts";
import { parseCommandLine } from "../lib/cli/parse_args.ts";
import { parseSince, type Since, sinceTime } from "../lib/core/since.ts";

const PROGRAM: CommandSpec = {
  name: "claudecm",
  description: "",
  subcommands: [
    { name: "find", description: "", ...findCommand },
    { name: "export", description: "", ...exportCommand },
  ],
};

function parsed(args: string[]) {
  const line = parseCommandLine(PROGRAM, args);
  assert.equal(line.kind, "run");
  return line.kind === "run" ? line.input : assert.fail("not a run");
}

Deno.test("find --role: each value checked in the parser, commas and repeats collected", () => {
  assert.deepEqual(
    parsed(["find", "x", "--role", "user, tool", "--role", "assistant"]).parsed("role"),
    ["user", "tool", "assistant"],
  );
  assert.throws(() => parseCommandLine(PROGRAM, ["find", "x", "--role", "user,robot"]), {
    message: "--role takes user, assistant or tool, not 'user,robot'",
  });
});

Deno.test("find --since: the documented forms only, parsed in the parser", () => {
  const now = new Date("2026-12-01T12:00:00Z");
  // The table types it for find's run (ParsedValues); this input, from the bare parser, is untyped.
  const since = parsed(["find", "x", "--since", "3 d"]).parsed("since") as Since | undefined;
  assert.deepEqual(since, { ago: 3 * 86_400_000 });
  assert.equal(sinceTime(since!, now), "2026-11-28T12:00:00.000Z");
  assert.equal(sinceTime(parseSince("2026-11-30T14:05:09Z")!, now), "2026-11-30T14:05:09.000Z");
  for (const good of ["2026-11-30", "2026-11-30T14:05", "24h", "2w", "30M"]) {
    assert.notEqual(parseSince(good), null, good);
  }
  // Only the documented forms: JavaScript's own date guessing read '7' as July 2001.
  for (
    const bad of ["soon", "7", "last 7", "Nov 29", "2026-02-30", "2026-11-30T25:00", "1/2/2026"]
  ) {
    assert.equal(parseSince(bad), null, bad);
  }
  assert.equal(parseSince("99999999999d"), null, "a span too long for a date");
  assert.throws(() => parseCommandLine(PROGRAM, ["find", "x", "--since", "soon"]), {
    message: "--since takes 7d, 24h, 30m, 2w, a date (2026-11-30) or a date and time " +
      "(2026-11-30T14:05), not 'soon'",
  });
});

Deno.test("export --format: one of the table's choices, as the flow's type", () => {
  const input = parsed(["export", "1", "--format", "html"]);
  assert.equal(input.choice("format", ["md", "html"]), "html");
  assert.throws(() => parseCommandLine(PROGRAM, ["export", "1", "--format", "pdf"]), {
    message: "--format takes md or html, not 'pdf'",
  });
});

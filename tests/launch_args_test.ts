import assert from "node:assert/strict";
import { argsPickSession, buildClaudeArgs } from "../lib/app/launch/launch.ts";

const settings = { machineName: "desk", permissionArgs: ["--dangerously-skip-permissions"] };

Deno.test("claudecm's arguments come first, the user's last, without doubling what the user set", () => {
  const base = { sessionArgs: ["--session-id", "ID"], displayName: "desk - X", supportsName: true };
  assert.deepEqual(buildClaudeArgs(settings, { ...base, passArgs: ["--model", "opus"] }), [
    "--dangerously-skip-permissions",
    "--session-id",
    "ID",
    "-n",
    "desk - X",
    "--model",
    "opus",
  ]);
  assert.deepEqual(
    buildClaudeArgs(settings, { ...base, passArgs: ["--permission-mode", "plan", "-n", "mine"] }),
    ["--session-id", "ID", "--permission-mode", "plan", "-n", "mine"],
  );
  assert.deepEqual(
    buildClaudeArgs(settings, { ...base, supportsName: false, passArgs: [] }),
    ["--dangerously-skip-permissions", "--session-id", "ID"],
  );
});

Deno.test("pass-through arguments that pick the session turn write-ahead registration off", () => {
  for (const args of [["-c"], ["--continue"], ["-r", "x"], ["--resume=x"], ["--from-pr", "3"]]) {
    assert.equal(argsPickSession(args), true, args.join(" "));
  }
  for (const args of [[], ["--model", "opus"], ["-p", "--resume is only text here"]]) {
    assert.equal(argsPickSession(args), false, args.join(" "));
  }
});

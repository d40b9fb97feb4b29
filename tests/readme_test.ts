import assert from "node:assert/strict";
import { runCli } from "../lib/cli/program.ts";
import { translateLegacyArgs } from "../lib/cli/legacy.ts";

const README = Deno.readTextFileSync(new URL("../README.md", import.meta.url));

/** Every claudecm command line the README shows: code block lines and inline code spans. */
function readmeCommands(): string[] {
  const commands: string[] = [];
  for (const block of README.matchAll(/```sh\n([\s\S]*?)```/g)) {
    for (const line of block[1].split("\n")) {
      if (line.startsWith("claudecm ")) commands.push(line.replace(/\s+#.*$/, "").trim());
    }
  }
  for (const span of README.matchAll(/`(claudecm(?: [^`]*)?)`/g)) commands.push(span[1]);
  return [...new Set(commands)];
}

/** What `claudecm ...args` prints. */
async function output(args: string[]): Promise<{ code: number; text: string }> {
  let text = "";
  const code = await runCli(args, {
    makeContext: () => {
      throw new Error("help must not need a context");
    },
    writeOut: (t) => text += t,
    writeErr: (t) => text += t,
  });
  return { code, text };
}

Deno.test("every claudecm command and option the README names exists (the README promises only what works)", async () => {
  const commands = readmeCommands();
  assert.ok(commands.length > 10, "the README's commands were found");
  for (const command of commands) {
    // Optional parts in brackets are options too: `doctor [--json]`.
    const words = command.replace(/[[\]]/g, "").split(/\s+/).slice(1);
    const [name, ...rest] = translateLegacyArgs(
      words.filter((w) => w === w.toLowerCase() || /^\d+$/.test(w) || w.startsWith("-")),
    );
    if (name === "--version" || name === "-V") continue;
    if (name === "--help") {
      const help = await output(["--help"]);
      assert.equal(help.code, 0, command);
      assert.match(help.text, /^Usage: claudecm /, command);
      continue;
    }
    const group = name === "skill" || (name === "vault" && /^(sync|prune)$/.test(rest[0] ?? ""));
    const path = group ? [name, rest[0]] : [name];
    const help = await output([...path, "--help"]);
    assert.equal(help.code, 0, command);
    assert.match(help.text, new RegExp(`^Usage: claudecm ${path.join(" ")}\\b`), command);
    const ownArgs = rest.slice(0, rest.includes("--") ? rest.indexOf("--") : undefined);
    for (const option of ownArgs.filter((w) => w.startsWith("--"))) {
      assert.ok(help.text.includes(option), `${command}: ${option} is not an option of ${name}`);
    }
  }
});

Deno.test("the README's first screen: what claudecm is, install and test, then daily use", () => {
  const [firstScreen] = README.split(/\n## (?!Daily use\n)/);
  const [intro, daily] = firstScreen.split("\n## Daily use\n");
  assert.ok(daily !== undefined, "a Daily use section comes first");
  const commands = [...intro.matchAll(/^(npm [^#\n]*?)\s+#/gm)].map((m) => m[1]);
  assert.deepEqual(commands, ["npm ci && npm run install-from-source", "npm ci && npm test"]);
  // Both must stay true: the scripts they name are package.json's.
  const scripts = JSON.parse(
    Deno.readTextFileSync(new URL("../package.json", import.meta.url)),
  ).scripts;
  for (const script of ["install-from-source", "test"]) assert.ok(scripts[script], script);
  const everyday = daily.match(/```sh\n([\s\S]*?)```/)?.[1].trim().split("\n") ?? [];
  assert.ok(everyday.length >= 6 && everyday.length <= 8, `6-8 everyday commands: ${everyday}`);
  for (const line of everyday) assert.match(line, /^claudecm \S.* # \S/, "each with its comment");
  // Nothing there about a command the reader has not run: no npm run other than the two.
  assert.doesNotMatch(firstScreen, /npm run (?!install-from-source)/);
});

// Issue 33.1: the README's command reference and the command table say the same.
Deno.test("every command of the table is in the README, as the README's commands are in the table", async () => {
  const { COMMANDS } = await import("../lib/cli/commands.ts");
  const named = new Set(readmeCommands().map((command) => command.split(/\s+/)[1]));
  for (const command of COMMANDS.filter((c) => c.hidden !== true)) {
    assert.ok(named.has(command.name), `the README names no claudecm ${command.name}`);
  }
});

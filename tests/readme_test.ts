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

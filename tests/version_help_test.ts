import assert from "node:assert/strict";
import packageJson from "../package.json" with { type: "json" };
import { runClaudecm } from "./helpers/run_cli.ts";
import { createFakeWorld } from "./helpers/fakes.ts";

// Issue 18 item 2: `claudecm -v` printed claude's version and `claudecm version` started a session.
Deno.test("-v, -V, --version and version print claudecm's version, then claude's, and start nothing", async () => {
  const world = createFakeWorld();
  try {
    for (const args of [["-v"], ["-V"], ["--version"], ["version"], ["-V", "list"]]) {
      const result = await runClaudecm(args, { env: world.env, cwd: world.project });
      assert.equal(result.code, 0, `${args.join(" ")}: ${result.stderr}`);
      assert.equal(
        result.stdout,
        `${packageJson.version}\nclaude 2.1.332 (Claude Code)\n`,
        args.join(" "),
      );
    }
    assert.ok(
      world.argv("claude").every(({ argv }) => argv.join(" ") === "--version"),
      "claude was only asked its version",
    );
    const noClaude = { ...world.env, CLAUDECM_CLAUDE: `${world.dir}/no-claude-here` };
    for (const args of [["-v"], ["version"]]) {
      const result = await runClaudecm(args, { env: noClaude, cwd: world.project });
      // Issue 31 item 9: --help promises claude's version on the second line; say why there is none.
      assert.deepEqual([result.code, result.stdout], [
        0,
        `${packageJson.version}\nclaude: not found (CLAUDECM_CLAUDE is set to ${world.dir}/no-claude-here, which is not an executable file)\n`,
      ]);
    }
    const noPath = { ...world.env, CLAUDECM_CLAUDE: "", PATH: world.dir };
    for (const args of [["--version"], ["version"]]) {
      const result = await runClaudecm(args, { env: noPath, cwd: world.project });
      assert.deepEqual([result.code, result.stdout], [
        0,
        `${packageJson.version}\nclaude: not found (install: npm install -g @anthropic-ai/claude-code)\n`,
      ]);
    }
  } finally {
    world.cleanup();
  }
});

// Issue 18 item 17: `help help` said "unknown command 'help'", `help --help` suggested `--lp`.
Deno.test("help help and help --help print the program's help", async () => {
  const help = await runClaudecm(["--help"], { env: {} });
  assert.equal(help.code, 0);
  for (const args of [["help", "help"], ["help", "--help"], ["help", "-h"], ["help"]]) {
    const result = await runClaudecm(args, { env: {} });
    assert.deepEqual(
      [result.code, result.stdout, result.stderr],
      [0, help.stdout, ""],
      args.join(" "),
    );
  }
  const version = await runClaudecm(["help", "version"], { env: {} });
  assert.equal(version.code, 0);
  assert.match(version.stdout, /^Usage: claudecm version/);
});

// Issue 31 item 11: four r-words that do four different things, told apart by when to use each.
Deno.test("--help lists recover, restore, rescue and recall under one heading, each with when to use it", async () => {
  const help = await runClaudecm(["--help"], { env: {} });
  const section = help.stdout.split("\n\n").find((part) => part.startsWith("When a session"));
  assert.ok(section !== undefined, help.stdout);
  const names = [...section.matchAll(/^ {2}(\w+)/gm)].map((match) => match[1]);
  assert.deepEqual(names.sort(), ["recall", "recover", "rescue", "restore"]);
  assert.doesNotMatch(help.stdout, /rebuild/, "recover rebuilds nothing");
  assert.match(section, /claude crashed and the session will not\s+resume/);
  const commands = help.stdout.split("\n\n").find((part) => part.startsWith("Commands:"))!;
  assert.doesNotMatch(commands, /^ {2}(recover|restore|rescue|recall)\b/m);
});

// Issue 33.1: the words that ask for the version are lib/version.ts's, in main.ts and lib/cli alike.
Deno.test("every word main.ts answers with the version asks lib/cli for it too", async () => {
  const { VERSION_ARGS } = await import("../lib/version.ts");
  const { parseCommandLine } = await import("../lib/cli/parse_args.ts");
  const { translateLegacyArgs } = await import("../lib/cli/legacy.ts");
  const { PROGRAM } = await import("../lib/cli/program.ts");
  const { VERSION_COMMAND } = await import("../lib/cli/commands.ts");
  assert.ok(VERSION_ARGS.length >= 4);
  for (const word of VERSION_ARGS) {
    const parsed = parseCommandLine(PROGRAM, translateLegacyArgs([word]));
    const asks = parsed.kind === "version" ||
      (parsed.kind === "run" && parsed.command.name === VERSION_COMMAND.name);
    assert.ok(asks, word);
  }
});

// The program's option is declared once, on PROGRAM, which its --help, completions and man page
// read: it is spelt as the words the parser answers for the version (lib/version.ts).
Deno.test("the program's -V, --version is declared once, with the words the parser answers", async () => {
  const { VERSION_FLAGS } = await import("../lib/version.ts");
  const { PROGRAM } = await import("../lib/cli/program.ts");
  const { completionModel } = await import("../lib/cli/completion_model.ts");
  const [program] = completionModel(PROGRAM, []);
  const version = program.options.find((option) => option.long === "--version");
  assert.deepEqual([version?.short, version?.long].sort(), [...VERSION_FLAGS].sort());
});

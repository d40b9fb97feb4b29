/**
 * Shell completions (issue 33.5): made from the command table, they offer
 * what each command's --help lists; exercised in real bash and fish, zsh
 * checked with `zsh -n`; the session numbers come from a hidden entry point
 * that writes nothing.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { runCli } from "../lib/cli/program.ts";
import { PROGRAM } from "../lib/cli/program.ts";
import { commandTable } from "../lib/cli/commands.ts";
import { completionModel } from "../lib/cli/completion_model.ts";
import { claudecmInvocation, runClaudecm } from "./helpers/run_cli.ts";
import { createTestContext } from "./helpers/test_context.ts";
import { writeRegistryText } from "./helpers/claude_home.ts";
import { treeState } from "./helpers/tree_state.ts";
import { toolAvailable } from "./helpers/test_tools.ts";
import { ON_WINDOWS } from "./helpers/portable.ts";
import { openTmux, tmuxAvailable } from "./helpers/tmux.ts";

async function help(path: string[]): Promise<string> {
  let text = "";
  await runCli([...path, "--help"], {
    makeContext: () => {
      throw new Error("help needs no context");
    },
    writeOut: (t) => text += t,
    writeErr: (t) => text += t,
  });
  return text;
}

/** The options a help text lists: each line's first words under "Options:". */
function helpOptions(text: string): string[] {
  const section = text.split("\n\n").find((part) => part.startsWith("Options:")) ?? "";
  return [...section.matchAll(/^ {2}((?:-[A-Za-z], )?--[a-z-]+)/gm)].map((m) => m[1]);
}

Deno.test("completions offer, for every command, exactly the options its --help lists", async () => {
  const model = completionModel(PROGRAM, await commandTable());
  assert.ok(model.length > 25, "every command and subcommand");
  for (const command of model) {
    const offered = command.options.map((o) => o.short ? `${o.short}, ${o.long}` : o.long);
    assert.deepEqual(offered, helpOptions(await help(command.path)), command.path.join(" "));
  }
  assert.ok(!model[0].subcommands.includes("__complete"), "the entry point is hidden");
});

/** A world with two sessions and one archived, and `claudecm` on PATH as the tests run it. */
function world() {
  const t = createTestContext();
  writeRegistryText(
    t.ctx.paths,
    "0f3a9c1e-1111-4000-8000-000000000001|/p/a|weekly notes|\n" +
      "0f3a9c1e-2222-4000-8000-000000000002|/p/b|fix\tbilling|\n" +
      "[archived]\n0f3a9c1e-3333-4000-8000-000000000003|/p/c|old stuff|\n",
  );
  const bin = join(t.home, "bin");
  Deno.mkdirSync(bin);
  Deno.mkdirSync(join(t.home, "zz-folder", "sub"), { recursive: true });
  const [program, leading] = claudecmInvocation(Deno.env.get("CLAUDECM_BIN"));
  const words = [program, ...leading].map((w) => `'${w.replace(/'/g, `'\\''`)}'`).join(" ");
  Deno.writeTextFileSync(join(bin, "claudecm"), `#!/bin/sh\nexec ${words} "$@"\n`);
  Deno.chmodSync(join(bin, "claudecm"), 0o755);
  const env = { ...t.env, PATH: `${bin}:${Deno.env.get("PATH") ?? ""}` };
  return { t, env };
}

async function script(shell: string, env: Record<string, string>, cwd: string): Promise<string> {
  const result = await runClaudecm(["completions", shell], { env, cwd });
  assert.equal(result.code, 0, result.stderr);
  return result.stdout;
}

async function shellOutput(
  program: string,
  args: string[],
  env: Record<string, string>,
  cwd: string,
) {
  const output = await new Deno.Command(program, {
    args,
    env,
    cwd,
    stdout: "piped",
    stderr: "piped",
  })
    .output();
  return {
    code: output.code,
    stdout: new TextDecoder().decode(output.stdout),
    stderr: new TextDecoder().decode(output.stderr),
  };
}

Deno.test({
  name: "bash: commands, options per command, choices, folders and session numbers",
  ignore: ON_WINDOWS || !toolAvailable("bash"),
  fn: async () => {
    const { t, env } = world();
    try {
      Deno.writeTextFileSync(join(t.home, "c.bash"), await script("bash", env, t.home));
      const cases: Array<[string[], string]> = [
        [["re"], "resume rename recover rescue recall restore"],
        [["resume", ""], "1 2"],
        [["fork", ""], "1 2"],
        // unarchive takes the archived list's numbers.
        [["unarchive", ""], "1"],
        [["archive", ""], "1 2"],
        [["resume", "--"], "--help"],
        [["vault", "prune", "--"], "--dry-run --json --help"],
        [["vault", ""], "--json -h --help sync prune"],
        [["find", "--role", "a"], "assistant"],
        [["new", "--proj", "zz"], "zz-folder"],
        [["recover", "--session", ""], "1 2"],
        [["completions", "f"], "fish"],
        [["rename", "1", ""], ""],
      ];
      const lines = cases.map(([words]) => `comp ${words.map((w) => `'${w}'`).join(" ")}`);
      const test = "source ./c.bash\n" +
        'comp() { COMP_WORDS=(claudecm "$@"); COMP_CWORD=$#; COMPREPLY=(); _claudecm; ' +
        'echo "${COMPREPLY[*]}"; }\n' + lines.join("\n") + "\n";
      Deno.writeTextFileSync(join(t.home, "t.sh"), test);
      const result = await shellOutput("bash", ["t.sh"], env, t.home);
      assert.equal(result.stderr, "");
      assert.deepEqual(result.stdout.split("\n").slice(0, -1), cases.map(([, want]) => want));
    } finally {
      t.cleanup();
    }
  },
});

Deno.test({
  name: "fish: commands with descriptions, options, session numbers with their names",
  ignore: ON_WINDOWS || !toolAvailable("fish"),
  fn: async () => {
    const { t, env } = world();
    try {
      Deno.writeTextFileSync(join(t.home, "c.fish"), await script("fish", env, t.home));
      const complete = async (line: string) =>
        (await shellOutput("fish", ["-c", `source c.fish; complete -C '${line}'`], env, t.home))
          .stdout;
      assert.match(await complete("claudecm del"), /^delete\tdelete a session/m);
      assert.equal(await complete("claudecm resume "), "1\tweekly notes\n2\tfix billing\n");
      assert.equal(await complete("claudecm unarchive "), "1\told stuff\n");
      assert.match(await complete("claudecm vault prune --"), /^--dry-run\t/m);
      assert.doesNotMatch(await complete("claudecm vault prune --"), /^--all\t/m);
      assert.match(await complete("claudecm new --proj "), /^zz-folder\//m);
      assert.match(await complete("claudecm export --format "), /^html\t/m);
    } finally {
      t.cleanup();
    }
  },
});

Deno.test({
  name:
    "zsh: the script parses (zsh -n); powershell: one script; an unknown shell is one line naming the four",
  ignore: ON_WINDOWS || !toolAvailable("zsh"),
  fn: async () => {
    const { t, env } = world();
    try {
      Deno.writeTextFileSync(join(t.home, "c.zsh"), await script("zsh", env, t.home));
      const checked = await shellOutput("zsh", ["-n", "c.zsh"], env, t.home);
      assert.deepEqual([checked.code, checked.stderr], [0, ""]);
      assert.match(await script("powershell", env, t.home), /Register-ArgumentCompleter/);
      const unknown = await runClaudecm(["completions", "tcsh"], { env, cwd: t.home });
      assert.equal(unknown.code, 2);
      assert.equal(
        unknown.stderr,
        "claudecm: no completions for 'tcsh': the shells are bash, zsh, fish and powershell\n",
      );
    } finally {
      t.cleanup();
    }
  },
});

Deno.test({
  name: "bash: a folder or file whose name has spaces is offered whole, not split into words",
  ignore: ON_WINDOWS || !toolAvailable("bash"),
  fn: async () => {
    const { t, env } = world();
    try {
      Deno.mkdirSync(join(t.home, "my project", "sub"), { recursive: true });
      Deno.mkdirSync(join(t.home, 'it\'s "quoted" 日本'));
      Deno.writeTextFileSync(join(t.home, "my notes.md"), "");
      Deno.writeTextFileSync(join(t.home, "c.bash"), await script("bash", env, t.home));
      const test = "source ./c.bash\n" +
        'comp() { COMP_WORDS=(claudecm "$@"); COMP_CWORD=$(($# )); COMPREPLY=(); _claudecm; ' +
        'printf "<%s>" "${COMPREPLY[@]}"; echo; }\n' +
        "comp new --proj 'my p'\ncomp move \"it's\"\ncomp export 1 -o 'my n'\n";
      Deno.writeTextFileSync(join(t.home, "t.sh"), test);
      const result = await shellOutput("bash", ["t.sh"], env, t.home);
      assert.equal(result.stderr, "");
      assert.deepEqual(result.stdout.split("\n").slice(0, -1), [
        "<my project>",
        `<it's "quoted" 日本>`,
        "<my notes.md>",
      ]);
    } finally {
      t.cleanup();
    }
  },
});

Deno.test({
  name: "zsh, in a terminal: Tab after a session command offers the numbers with their names",
  ignore: ON_WINDOWS || !toolAvailable("zsh") || !tmuxAvailable(),
  fn: async () => {
    const { t, env } = world();
    Deno.writeTextFileSync(join(t.home, "c.zsh"), await script("zsh", env, t.home));
    const terminal = await openTmux([], {
      env: { ...env, PS1: "%% " },
      cwd: t.home,
      command: ["zsh", "-f"],
    });
    try {
      await terminal.waitFor(/^%/m);
      await terminal.keys(["autoload -Uz compinit && compinit -u -D && source ./c.zsh"], {
        literal: true,
      });
      await terminal.keys(["Enter"]);
      await terminal.waitFor(/c\.zsh\n%/);
      await terminal.keys(["claudecm resume "], { literal: true });
      await terminal.keys(["Tab"]);
      const screen = await terminal.waitFor(/weekly notes/);
      assert.match(screen, /1 +-- weekly notes/);
      assert.match(screen, /2 +-- fix billing/);
      await terminal.keys(["C-u"]);
      await terminal.keys(["claudecm unarchive "], { literal: true });
      await terminal.keys(["Tab"]);
      // The archived list has one session: Tab puts its number in.
      await terminal.waitFor(/^% claudecm unarchive 1/m);
    } finally {
      await terminal.close();
      t.cleanup();
    }
  },
});

Deno.test("the session entry point prints number and name, and writes nothing", async () => {
  const { t, env } = world();
  try {
    const before = treeState(t.home);
    const result = await runClaudecm(["__complete", "sessions"], { env, cwd: t.home });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, "1\tweekly notes\n2\tfix billing\n");
    const archived = await runClaudecm(["__complete", "archived"], { env, cwd: t.home });
    assert.equal(archived.stdout, "1\told stuff\n");
    assert.deepEqual(treeState(t.home), before);
    const help = await runClaudecm(["--help"], { env, cwd: t.home });
    assert.doesNotMatch(help.stdout, /__complete/);
  } finally {
    t.cleanup();
  }
});

import assert from "node:assert/strict";
import { commandTypo, numberTypo, translateLegacyArgs } from "../lib/cli/legacy.ts";
import { createLaunchWorld } from "./helpers/launch_world.ts";

// Issue 18 item 1: a mistyped command used to start claude with the typo as its prompt
// (permissions bypassed) and save it as a session.
Deno.test("a first word close to a command is a typo: the commands it is close to", () => {
  const typos: Array<[string, string[]]> = [
    ["lsit", ["list"]],
    ["lits", ["list"]],
    ["lis", ["list"]],
    ["List", ["list"]],
    ["serch", ["search"]],
    ["serach", ["search"]],
    ["sea", ["search"]],
    ["recal", ["recall"]],
    ["rec", ["recall", "recover"]],
    ["reover", ["recover"]],
    ["resum", ["resume"]],
    ["res", ["rescue", "restore", "resume"]],
    ["restor", ["restore"]],
    ["valut", ["vault"]],
    ["rescu", ["rescue"]],
    ["doctr", ["doctor"]],
    ["docotr", ["doctor"]],
    ["doc", ["doctor"]],
    ["fnd", ["find"]],
    ["fidn", ["find"]],
    ["adpot", ["adopt"]],
    ["skil", ["skill"]],
    ["skel", ["skeleton"]],
    ["skeletn", ["skeleton"]],
    ["hlep", ["help"]],
    ["versoin", ["version"]],
    ["ver", ["version"]],
    // What hides a command from the eye: an invisible character, a space, a look-alike letter.
    ["list\u200b", ["list"]],
    ["\u202elist", ["list"]],
    ["list ", ["list"]],
    ["l\u0131st", ["list"]],
    ["lis\u0442", ["list"]],
    ["s\u0435arch", ["search"]],
  ];
  for (const [word, expected] of typos) {
    assert.deepEqual(commandTypo([word, "more", "words"]), expected, word);
  }
});

Deno.test("real prompts are not typos: common first words still start a session", () => {
  const prompts = [
    // Within the typo rule's reach of a command, and common at the start of a prompt.
    "now",
    "news",
    "net",
    "last",
    "lost",
    "lint",
    "lift",
    "fine",
    "fund",
    "held",
    "hell",
    "heap",
    "adapt",
    "still",
    "spill",
    "remove",
    "vision",
    // Further from every command.
    "fix",
    "add",
    "how",
    "why",
    "what",
    "hello",
    "hi",
    "test",
    "result",
    "reuse",
    "resize",
    "really",
    "docker",
    "skip",
    "shell",
    "next",
    "review",
    "refactor",
    "explain",
    "write",
    "please",
    "ls",
    "re",
    "q",
    // Other scripts, and accented words that are no command.
    "\u043d\u0430\u0439\u0434\u0438",
    "\u00e9cris",
    "\u00fcbersetze",
    // Not words of letters at all.
    "3d",
    "--model",
    "-p",
    "fix:",
  ];
  for (const word of prompts) {
    assert.deepEqual(commandTypo([word, "the", "build"]), [], word);
    assert.deepEqual(translateLegacyArgs([word, "x"])[0], "new", word);
  }
  // The commands and the old forms themselves are not typos.
  for (const args of [["list"], ["version"], ["l"], ["n"], ["3"], ["-s", "lsit"], []]) {
    assert.deepEqual(commandTypo(args), [], args.join(" "));
  }
});

Deno.test("claudecm lsit: exit 2, one line with the suggestion, claude never starts, nothing saved", async () => {
  const world = createLaunchWorld();
  try {
    for (const [args, hint] of [[["lsit"], "list"], [["serach", "billing"], "search"]] as const) {
      const result = await world.run([...args]);
      assert.equal(result.code, 2, result.stderr);
      assert.equal(
        result.stderr,
        `claudecm: unknown command '${args[0]}'. Did you mean ${hint}? ` +
          `(To send it to claude: claudecm new -- ${args.join(" ")})\n`,
      );
    }
    const recal = await world.run(["recal"]);
    assert.equal(recal.code, 2);
    const fullwidth = await world.run(["\uff11"]);
    assert.equal(fullwidth.code, 2);
    assert.match(fullwidth.stderr, /is not a session number as typed; to resume it: claudecm 1/);
    // A script's unset variable: no session with an empty prompt.
    const empty = await world.run([""]);
    assert.equal(empty.code, 2);
    assert.match(empty.stderr, /^claudecm: the first argument is empty/);
    assert.deepEqual(world.argv("claude"), [], "claude never ran, not even a probe");
    assert.deepEqual(world.sessions(), []);
  } finally {
    world.cleanup();
  }
});

Deno.test("claudecm new -- lsit sends the word to claude as a prompt", async () => {
  const world = createLaunchWorld();
  try {
    const result = await world.run(["new", "--", "lsit"]);
    assert.equal(result.code, 0, result.stderr);
    const launches = world.launches();
    assert.equal(launches.length, 1);
    assert.equal(launches[0].argv.at(-1), "lsit");
  } finally {
    world.cleanup();
  }
});

Deno.test("a session number that is not one as typed is refused with the number to type", () => {
  const cases: Array<[string, string | null]> = [
    ["\uff11", "1"],
    [" 1", "1"],
    ["1 ", "1"],
    ["1\u200b", "1"],
    ["\uff11\uff12", "12"],
    ["\u0661", ""],
    ["12", null],
    ["list", null],
    ["--help", null],
    ["1a", null],
    ["", null],
  ];
  for (const [arg, expected] of cases) {
    assert.equal(numberTypo([arg]), expected, JSON.stringify(arg));
  }
});

// Issue 33.4: `claudecm delete 1` and `claudecm rm 1` were prompts for claude, permissions bypassed.
Deno.test("a bare first word is never a prompt: refused with the command it probably meant", async () => {
  const world = createLaunchWorld();
  try {
    const cases: Array<[string[], string]> = [
      [["rm", "1"], "Did you mean delete? (To send it to claude: claudecm new -- rm 1)"],
      [["mv", "1", "x"], "Did you mean rename?"],
      [["ls"], "Did you mean list?"],
      [["cp", "2"], "Did you mean fork?"],
      [["show"], "Did you mean list?"],
      [["open", "3"], "Did you mean resume?"],
      [["hello"], "(claudecm --help lists them; to send it to claude: claudecm new -- hello)"],
      [["fix", "the", "bug"], "to send it to claude: claudecm new -- fix the bug"],
      [["fix:"], "claudecm new -- fix:"],
    ];
    for (const [args, hint] of cases) {
      const result = await world.run(args);
      assert.equal(result.code, 2, args.join(" "));
      assert.ok(result.stderr.startsWith(`claudecm: unknown command '${args[0]}'`), result.stderr);
      assert.ok(result.stderr.includes(hint), `${args.join(" ")}: ${result.stderr}`);
      assert.equal(result.stderr.trimEnd().split("\n").length, 1);
    }
    assert.deepEqual(world.argv("claude"), [], "claude never ran");
    assert.deepEqual(world.sessions(), []);
    // A quoted prompt with spaces and `-` arguments still go to claude, as the old scripts sent them.
    for (const args of [["fix the login bug"], ["-p", "hi"]]) {
      const result = await world.run(args);
      assert.equal(result.code, 0, `${args.join(" ")}: ${result.stderr}`);
      assert.equal(world.launches().at(-1)!.argv.at(-1), args.at(-1));
    }
  } finally {
    world.cleanup();
  }
});

import assert from "node:assert/strict";
import { ON_WINDOWS } from "./helpers/portable.ts";
import { runClaudecm } from "./helpers/run_cli.ts";
import { sessionId, writeRegistryText, writeTranscript } from "./helpers/claude_home.ts";
import { createTestContext } from "./helpers/test_context.ts";
import packageJson from "../package.json" with { type: "json" };
import { treeState } from "./helpers/tree_state.ts";
import { join } from "../lib/core/path.ts";

Deno.test("--version and --help exit 0 without needing a HOME", async () => {
  const version = await runClaudecm(["--version"], { env: {} });
  assert.equal(version.code, 0);
  // No PATH: no claude, and the second line says so (issue 31 item 9).
  assert.equal(version.stdout.split("\n")[0], packageJson.version);
  assert.match(version.stdout, /\nclaude: not found \(install: npm install -g /);
  // main.ts answers --version alone without loading the CLI; with more arguments the CLI does,
  // and both must print the same.
  for (const args of [["-V"], ["--version", "--help"], ["-V", "list"]]) {
    const other = await runClaudecm(args, { env: {} });
    assert.deepEqual([other.code, other.stdout], [0, version.stdout], args.join(" "));
  }
  const help = await runClaudecm(["--help"], { env: {} });
  assert.equal(help.code, 0);
  assert.match(help.stdout, /Usage: claudecm/);
  assert.match(help.stdout, /list \[options\]/);
  assert.match(help.stdout, /Old forms still work/);
  // The rule as the grammar has it (DESIGN.md 5.22): any one bare word, not only a typo.
  assert.match(
    help.stdout.replace(/\s+/g, " "),
    /One bare word that is not a command \(rm, lsit\) is refused/,
  );
  const bare = await runClaudecm(["rm", "1"], { env: {} });
  assert.deepEqual([bare.code, bare.stdout], [2, ""]);
});

Deno.test("an unknown flag on a canonical subcommand is a usage error, exit 2", async () => {
  const t = createTestContext();
  try {
    const result = await runClaudecm(["list", "--bogus"], { env: t.env });
    assert.equal(result.code, 2);
    assert.match(result.stderr, /unknown option '--bogus'/);
    assert.doesNotMatch(result.stderr, /\bat \S+:\d+/, "no stack trace");
  } finally {
    t.cleanup();
  }
});

Deno.test("no home: one clear line and exit 1, not a stack trace", async () => {
  const result = await runClaudecm(["list", "--json"], { env: {} });
  assert.equal(result.code, 1);
  // Windows names the home USERPROFILE.
  const variable = ON_WINDOWS ? "USERPROFILE" : "HOME";
  assert.equal(
    result.stderr,
    `claudecm: cannot find your home directory: ${variable} is not set\n`,
  );
});

Deno.test("a relative HOME (or claudecm's or claude's folder) is refused like no home (issue 30 item 16)", async () => {
  const t = createTestContext();
  try {
    const homeVariable = ON_WINDOWS ? "USERPROFILE" : "HOME";
    const cases: Array<[Record<string, string>, string]> = [
      [
        { [homeVariable]: "rel" },
        `cannot find your home directory: ${homeVariable} is rel, not an absolute path`,
      ],
      [{ CLAUDECM_HOME: "state" }, "CLAUDECM_HOME is state, not an absolute path"],
      [{ CLAUDE_CONFIG_DIR: ".claude" }, "CLAUDE_CONFIG_DIR is .claude, not an absolute path"],
    ];
    for (const [env, message] of cases) {
      for (const args of [["list"], ["list", "--json"], ["new"]]) {
        const result = await runClaudecm(args, { env: { ...t.env, ...env }, cwd: t.home });
        assert.equal(result.code, 1, `${args} ${JSON.stringify(env)}: ${result.stderr}`);
        assert.match(result.stderr, new RegExp(`^claudecm: ${message}; set it to`), args.join(" "));
      }
    }
    // Nothing landed under the folder the relative path would have named.
    assert.deepEqual(
      ["rel", "state", ".claude"].filter((name) => {
        try {
          return Deno.lstatSync(join(t.home, name)) !== null;
        } catch {
          return false;
        }
      }),
      [],
    );
  } finally {
    t.cleanup();
  }
});

Deno.test('CLAUDE_CONFIG_DIR naming a file says so, not "No saved sessions." (issue 30 item 16)', async () => {
  const t = createTestContext();
  try {
    const file = join(t.home, "claude-config");
    Deno.writeTextFileSync(file, "");
    for (const args of [["list"], ["list", "--json"], ["doctor"], ["adopt"]]) {
      const result = await runClaudecm(args, { env: { ...t.env, CLAUDE_CONFIG_DIR: file } });
      assert.equal(result.code, 1, `${args}: ${result.stdout}`);
      assert.match(
        result.stderr,
        /^claudecm: CLAUDE_CONFIG_DIR is .*claude-config, a file: claude keeps its state in a folder/,
      );
      assert.doesNotMatch(result.stdout, /No saved sessions/);
    }
    // ~/.claude itself a file: the same, named as the path it is.
    Deno.mkdirSync(t.ctx.paths.claudeRoot, { recursive: true });
    Deno.removeSync(t.ctx.paths.claudeRoot, { recursive: true });
    Deno.writeTextFileSync(t.ctx.paths.claudeRoot, "");
    const env = { ...t.env };
    delete env.CLAUDE_CONFIG_DIR;
    const plain = await runClaudecm(["list"], { env: { ...env, HOME: t.home } });
    assert.match(plain.stderr, /\.claude is a file where claude keeps its state in a folder/);
  } finally {
    t.cleanup();
  }
});

Deno.test("list --json prints the registry with info and writes nothing", async () => {
  const t = createTestContext();
  try {
    const [live, gone, old] = [1, 2, 3].map(sessionId);
    const dir = t.ctx.cwd();
    writeTranscript(t.ctx.paths, dir, live);
    writeRegistryText(
      t.ctx.paths,
      `${live}|${dir}|My App|155000\nnot a session line\n${gone}|${dir}/gone|Gone one|\n` +
        `[archived]\n${old}|/old|Old|\n`,
    );
    Deno.mkdirSync(t.ctx.paths.claudeRoot, { recursive: true });
    Deno.writeTextFileSync(t.ctx.paths.settingsFile, '{"cleanupPeriodDays": 30}');
    const before = treeState(t.home);
    const result = await runClaudecm(["list", "--json"], { env: t.env, cwd: dir });
    assert.equal(result.code, 0, result.stderr);
    const listed = JSON.parse(result.stdout);
    assert.deepEqual(
      listed.sessions.map((s: Record<string, unknown>) => [s.number, s.desc, s.status, s.tokens]),
      [[1, "My App", "ok", 155000], [2, "Gone one", "missing", null]],
    );
    assert.deepEqual(listed.archived.map((s: { guid: string }) => s.guid), [old]);
    assert.deepEqual(listed.malformedLines, [{
      lineNumber: 2,
      text: "not a session line",
      reason: "expected GUID|DIR|DESC|TOKENS, found 1 field(s)",
    }]);
    assert.deepEqual(treeState(t.home), before, "list --json wrote nothing");
    assert.equal(Deno.readTextFileSync(t.ctx.paths.settingsFile), '{"cleanupPeriodDays": 30}');
  } finally {
    t.cleanup();
  }
});

Deno.test("list --json with no registry is an empty answer", async () => {
  const t = createTestContext();
  try {
    const result = await runClaudecm(["list", "--json"], { env: t.env });
    assert.equal(result.code, 0);
    assert.deepEqual(JSON.parse(result.stdout), { sessions: [], archived: [], malformedLines: [] });
  } finally {
    t.cleanup();
  }
});

Deno.test("plain list (old form `claudecm l`) shows the table after bootstrap", async () => {
  const t = createTestContext();
  try {
    const dir = t.ctx.cwd();
    writeTranscript(t.ctx.paths, dir, sessionId(1));
    writeRegistryText(t.ctx.paths, `${sessionId(1)}|${dir}|Named session|2000\n`);
    const result = await runClaudecm(["l"], { env: t.env, stdin: "" });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /=== Saved Sessions ===/);
    assert.match(result.stdout, /1\. Named session +\d+ B +2K tok /);
    // No terminal, nobody to ask (issue 31 defect 2): the host name for this run, nothing saved.
    assert.doesNotMatch(result.stdout + result.stderr, /Machine name for remote display/);
    assert.throws(() => Deno.statSync(t.ctx.paths.machineNameFile), Deno.errors.NotFound);
  } finally {
    t.cleanup();
  }
});

Deno.test("a --json run that fails prints one JSON object on stdout too, never two", async () => {
  const t = createTestContext();
  try {
    const missing = sessionId(0x99);
    const cases: Array<[string[], number, string]> = [
      [["recover", "--json", "--session", missing], 3, "error"],
      [["find", "--json", "--since", "soon", "x"], 2, "usage-error"],
      [["list", "--json", "--bogus"], 2, "usage-error"],
      [["recall", "--json"], 2, "usage-error"],
    ];
    for (const [args, code, status] of cases) {
      const run = await runClaudecm(args, { env: t.env, cwd: t.home });
      assert.equal(run.code, code, args.join(" "));
      const json = JSON.parse(run.stdout);
      assert.equal(json.status, status, args.join(" "));
      assert.equal(json.exitCode, code);
      assert.equal(`claudecm: ${json.message}\n`, run.stderr, "the same words as on stderr");
    }
    // recall prints its own failure object: nothing is added to it.
    const own = await runClaudecm(["recall", "--json", missing], { env: t.env, cwd: t.home });
    assert.equal(own.code, 3);
    assert.equal(JSON.parse(own.stdout).status, "session-not-found");
    // Without --json, or with it only in claude's arguments, stdout stays empty.
    const plain = await runClaudecm(["recover", "--session", missing], { env: t.env, cwd: t.home });
    assert.equal(plain.stdout, "");
    // --json as another option's value is no --json: the parsed command says so, not the words.
    const value = await runClaudecm(["export", "99", "-o", "--json"], { env: t.env, cwd: t.home });
    assert.equal(value.code, 3, value.stderr);
    assert.equal(value.stdout, "");
  } finally {
    t.cleanup();
  }
});

Deno.test("a first look at an empty list says how the first session starts", async () => {
  const t = createTestContext();
  try {
    for (const args of [["list"], []]) {
      const result = await runClaudecm(args, { env: t.env, stdin: "" });
      assert.equal(result.code, 0, result.stderr);
      assert.equal(
        result.stdout,
        "  No saved sessions yet: start one with claudecm new, in a project's folder.\n",
        args.join(" "),
      );
    }
  } finally {
    t.cleanup();
  }
});

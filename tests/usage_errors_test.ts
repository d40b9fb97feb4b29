import assert from "node:assert/strict";
import { runClaudecm } from "./helpers/run_cli.ts";
import { createTestContext } from "./helpers/test_context.ts";

Deno.test("usage errors say claudecm: like every other error, and exit 2", async () => {
  const t = createTestContext();
  try {
    const cases: Array<[string[], RegExp]> = [
      [["list", "--bogus"], /^claudecm: unknown option '--bogus'\n/],
      [["list", "--jsn"], /^claudecm: unknown option '--jsn'\n\(Did you mean --json\?\)\n$/],
      [["resume"], /^claudecm: missing <session> \(usage: claudecm resume <session>\)\n$/],
      [["resume", "0"], /^claudecm: there is no session #0: sessions are numbered from 1\n$/],
      [
        ["recover", "--limit", "abc"],
        /^claudecm: --limit takes a positive whole number \(1, 2, \.\.\.\), not 'abc'\n$/,
      ],
      [["restore", "1", "2"], /^claudecm: too many arguments: '2' \(usage: claudecm restore/],
      [["skill"], /^Usage: claudecm skill \[options\] \[command\]\n/],
      [["help", "bogus"], /^claudecm: unknown command 'bogus'\n$/],
    ];
    for (const [args, expected] of cases) {
      const result = await runClaudecm(args, { env: t.env });
      assert.equal(result.code, 2, args.join(" "));
      assert.match(result.stderr, expected, args.join(" "));
      assert.doesNotMatch(result.stderr, /^error:/m);
    }
  } finally {
    t.cleanup();
  }
});

Deno.test("an empty argument or path (an unset shell variable) is a usage error, never the current folder", async () => {
  const t = createTestContext();
  try {
    const cases: Array<[string[], RegExp]> = [
      [["resume", ""], /^claudecm: argument 'session' is empty\n$/],
      [["restore", " "], /^claudecm: argument 'session' is empty\n$/],
      [["recall", ""], /^claudecm: argument 'session' is empty\n$/],
      [["skeleton", ""], /^claudecm: argument 'session' is empty\n$/],
      [["move", "", t.home], /^claudecm: argument 'old' is empty\n$/],
      [["move", t.home, ""], /^claudecm: argument 'new' is empty\n$/],
      [["recover", "--json", "--cwd", ""], /empty path/],
      [["recall", "--last", "--cwd", ""], /empty path/],
      [["find", "word", "--project", ""], /empty path/],
      [["new", "--proj", ""], /empty path/],
      [["skeleton", "0f0f0f0f-0000-4000-8000-000000000000", "--out", ""], /empty path/],
      [["rescue", "--dry-run", "--workspace", ""], /empty path/],
      [["--proj", "", "hello"], /empty path/],
      [["--proj"], /^claudecm: --proj needs a value: --proj <dir>\n$/],
      [["fix the bug", "--proj"], /^claudecm: --proj needs a value: --proj <dir>\n$/],
      [["-c", "--proj"], /^claudecm: --proj needs a value: --proj <dir>\n$/],
    ];
    for (const [args, expected] of cases) {
      const result = await runClaudecm(args, { env: t.env, cwd: t.home });
      assert.equal(result.code, 2, `${JSON.stringify(args)}: ${result.stdout}${result.stderr}`);
      assert.match(result.stderr, expected, JSON.stringify(args));
      assert.equal(result.stderr.trimEnd().split("\n").length, 1, JSON.stringify(args));
    }
  } finally {
    t.cleanup();
  }
});

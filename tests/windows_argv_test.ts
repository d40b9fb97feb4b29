import assert from "node:assert/strict";
import { UserError } from "../lib/core/errors.ts";
import {
  buildCmdCommandLine,
  buildWindowsCommandLine,
  isBatchScript,
  parseWindowsCommandLine,
  quoteCmdArg,
  quoteWindowsArg,
} from "../lib/platform/windows_argv.ts";

/** Arguments that have broken Windows launchers before (spec 11.6, 14.5). */
const TRICKY = [
  "plain",
  "",
  "desktop - My Project",
  "-",
  'say "hi"',
  "C:\\Program Files\\",
  "C:\\Users\\alice\\Documents\\Trading Platform 8\\",
  'back\\"slash',
  "trailing\\\\",
  "\\\\server\\share",
  "a&b|c<d>e^f",
  "%PATH% and %%",
  "!bang!",
  "(paren) [bracket] ;semi, comma",
  "tab\there",
  "café ☕ 日本",
  "*?`",
  "please continue",
];

Deno.test("quoteWindowsArg follows the CommandLineToArgvW rules", () => {
  const table: Array<[string, string]> = [
    ["abc", "abc"],
    ["", '""'],
    ["a b", '"a b"'],
    ["tab\tx", '"tab\tx"'],
    ['a"b', '"a\\"b"'],
    ["a\\b", "a\\b"],
    ["a\\\\b", "a\\\\b"],
    ['a\\"b', '"a\\\\\\"b"'],
    ["C:\\Program Files\\", '"C:\\Program Files\\\\"'],
    ["x y\\\\", '"x y\\\\\\\\"'],
  ];
  for (const [arg, quoted] of table) {
    assert.equal(quoteWindowsArg(arg), quoted, JSON.stringify(arg));
  }
  assert.equal(quoteWindowsArg("abc", { always: true }), '"abc"');
});

Deno.test("parseWindowsCommandLine reads back what buildWindowsCommandLine writes", () => {
  assert.deepEqual(parseWindowsCommandLine(buildWindowsCommandLine(TRICKY)), TRICKY);
  assert.deepEqual(parseWindowsCommandLine('a "b c" d\\"e "f""g"'), ["a", "b c", 'd"e', 'f"g']);
  assert.deepEqual(parseWindowsCommandLine('  x  ""  '), ["x", ""]);
});

Deno.test("quoteCmdArg caret-escapes every cmd metacharacter, once per cmd parse", () => {
  const single: Array<[string, string]> = [
    ["abc", '^"abc^"'],
    ["a b", '^"a^ b^"'],
    ["a&b", '^"a^&b^"'],
    ["%PATH%", '^"^%PATH^%^"'],
    ['say "hi"', '^"say^ \\^"hi\\^"^"'],
    ["x^y", '^"x^^y^"'],
  ];
  for (const [arg, escaped] of single) {
    assert.equal(quoteCmdArg(arg, { doubleEscape: false }), escaped, arg);
  }
  assert.equal(quoteCmdArg("abc"), '^^^"abc^^^"', "double escape is the default");
});

Deno.test("a .cmd command line survives two cmd parses and the CRT split unchanged", () => {
  const script = "C:\\Users\\John Doe\\AppData\\Roaming\\npm\\cmv.cmd";
  const line = buildCmdCommandLine(script, TRICKY);
  // cmd parse 1 (running the line): split off the script at the first unescaped space, drop carets.
  const split = /(?<!\^) /.exec(line)!.index;
  assert.equal(cmdCaretPass(line.slice(0, split)), script);
  const forwarded = cmdCaretPass(line.slice(split + 1));
  // cmd parse 2 (the shim's `node cli.js %*` line), then node splits by the CRT rules.
  assert.deepEqual(parseWindowsCommandLine(cmdCaretPass(forwarded)), TRICKY);
});

Deno.test("a line break cannot reach a .cmd script: refused with a one-line UserError", () => {
  for (const arg of ["two\nlines", "cr\rhere", "nul\0"]) {
    assert.throws(
      () => quoteCmdArg(arg),
      (error: unknown) => error instanceof UserError && !error.message.includes("\n"),
    );
  }
  assert.throws(() => buildCmdCommandLine('C:\\bad"path.cmd', []), UserError);
});

Deno.test("isBatchScript knows what cmd.exe runs", () => {
  assert.ok(isBatchScript("C:\\x\\cmv.cmd"));
  assert.ok(isBatchScript("C:\\x\\RUN.BAT"));
  assert.ok(!isBatchScript("C:\\x\\claude.exe"));
  assert.ok(!isBatchScript("/usr/bin/cmv"));
});

/** cmd's caret phase outside quotes: `^x` is `x`; no quote state starts, as every quote is escaped. */
function cmdCaretPass(text: string): string {
  return text.replace(/\^(.)/g, "$1");
}

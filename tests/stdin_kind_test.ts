/**
 * lib/platform/stdin_kind.ts tells a file or a device on stdin (`</dev/null`,
 * `< NUL`, a file) from a pipe on every OS: on Windows, where there is no
 * /dev/stdin, by kernel32's GetFileType (run under wine by
 * scripts/windows_checks.sh).
 */

import assert from "node:assert/strict";

const HELPER = new URL("../lib/platform/stdin_kind.ts", import.meta.url).href;

/** What `stdinIsFile()` says in a child whose stdin is `stdin`. */
async function answerWith(stdin: "null" | "piped"): Promise<string> {
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "eval",
      `import { stdinIsFile } from ${JSON.stringify(HELPER)}; console.log(stdinIsFile());`,
    ],
    stdin,
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  if (stdin === "piped") await child.stdin.close();
  const { stdout, stderr, code } = await child.output();
  const decoder = new TextDecoder();
  assert.equal(code, 0, decoder.decode(stderr));
  return decoder.decode(stdout).trim();
}

Deno.test("stdin the null device is a file: its end is known", async () => {
  assert.equal(await answerWith("null"), "true");
});

Deno.test("stdin a pipe is no file: a program may be answering what it reads", async () => {
  assert.equal(await answerWith("piped"), "false");
});

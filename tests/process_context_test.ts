/**
 * The real run's context (lib/app/context.ts), in a child process: what it
 * does cannot be tried in the test process itself, whose folder every test
 * shares.
 */

import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";

const CONTEXT = fileURLToPath(new URL("../lib/app/context.ts", import.meta.url));

Deno.test({
  name: "a folder removed under a running claudecm is one line of error, not an internal error",
  // Windows does not let a process's current folder be removed.
  ignore: Deno.build.os === "windows",
  fn: async () => {
    const dir = Deno.makeTempDirSync({ prefix: "claudecm-gone-" });
    const script = `
    import { createProcessContext } from ${JSON.stringify(CONTEXT)};
    const ctx = createProcessContext();
    Deno.removeSync(Deno.cwd());
    try {
      ctx.cwd();
      console.log("no error");
    } catch (error) {
      console.log(error.name, error.message);
    }
  `;
    const output = await new Deno.Command(Deno.execPath(), {
      args: ["eval", "--quiet", script],
      cwd: dir,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    const text = new TextDecoder().decode(output.stdout);
    assert.equal(
      text,
      "UserError the folder you are in no longer exists (removed or moved meanwhile); " +
        "cd into one that does\n",
      new TextDecoder().decode(output.stderr),
    );
  },
});

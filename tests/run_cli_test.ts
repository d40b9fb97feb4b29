import assert from "node:assert/strict";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { claudecmInvocation } from "./helpers/run_cli.ts";

const TESTS = fileURLToPath(new URL(".", import.meta.url));

Deno.test("CLAUDECM_BIN replaces deno run main.ts for end-to-end runs", () => {
  const absolute = join(TESTS, "..", "somewhere", "claudecm");
  assert.deepEqual(claudecmInvocation(absolute), [absolute, []]);
  assert.deepEqual(claudecmInvocation("dist/claudecm"), [
    join(TESTS, "..", "dist", "claudecm"),
    [],
  ]);
  const [program, leading] = claudecmInvocation(undefined);
  assert.equal(program, Deno.execPath());
  assert.deepEqual(leading.slice(0, 3), ["run", "--allow-all", "--quiet"]);
  assert.ok(leading[3].endsWith("main.ts"));
  assert.deepEqual(claudecmInvocation(""), claudecmInvocation(undefined), "empty means unset");
});

// The suite runs against a compiled binary in CI only if no test starts
// claudecm its own way: every start goes through helpers/run_cli.ts.
Deno.test("tests start claudecm only through helpers/run_cli.ts", () => {
  const offenders = testSources(TESTS)
    .filter((path) => relative(TESTS, path) !== join("helpers", "run_cli.ts"))
    .filter((path) => /["'`](\.\.\/)+main\.ts["'`]/.test(Deno.readTextFileSync(path)))
    .map((path) => relative(TESTS, path));
  assert.deepEqual(offenders, [], "use runClaudecm or claudecmCommand from helpers/run_cli.ts");
});

function testSources(dir: string): string[] {
  return [...Deno.readDirSync(dir)].flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory) return testSources(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

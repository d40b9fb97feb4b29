/**
 * Runs lib/platform/spawn.ts's spawnInteractive in a process of its own, so
 * tests can send signals to "claudecm" without hitting the test runner.
 * Usage: `deno run -A spawn_harness.ts <result-file> <program> [args...]`.
 * Writes `{pid, code}` to the result file when the child ends, then (after
 * the grace period) sends itself SIGINT to show the default Ctrl-C behaviour
 * is back.
 *
 * @module
 */

import { SIGINT_GRACE_MS, spawnInteractive } from "../../lib/platform/spawn.ts";

const [resultFile, program, ...args] = Deno.args;
const child = spawnInteractive(program, args, { cwd: Deno.cwd(), env: Deno.env.toObject() });
const code = await child.status;
Deno.writeTextFileSync(resultFile, JSON.stringify({ pid: child.pid, code }));
if (Deno.env.get("HARNESS_SIGINT_AFTER") === "1") {
  // Past the grace period in which the SIGINT that ended the child is still ignored.
  await new Promise((resolve) => setTimeout(resolve, SIGINT_GRACE_MS * 2));
  Deno.kill(Deno.pid, "SIGINT");
  await new Promise((resolve) => setTimeout(resolve, 2000));
  Deno.writeTextFileSync(resultFile, "survived a SIGINT after the child ended");
}

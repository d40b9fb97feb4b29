/**
 * Run claudecm where file permissions apply. Permission tests chmod a folder
 * and expect claudecm to be refused; root is never refused, and CI runs as
 * root, so as root the child runs as `nobody` (uid 65534) instead.
 *
 * @module
 */

import { fileURLToPath } from "node:url";
import { childBaseEnv, collectOutput } from "./child.ts";
import type { RunOptions, RunResult } from "./run_cli.ts";

const MAIN = fileURLToPath(new URL("../../main.ts", import.meta.url));
const NOBODY = 65534;

/** Whether file permissions can be tested here (POSIX). */
export const permissionsTestable = Deno.build.os !== "windows";

/**
 * Run `claudecm ...args` as a user that permissions apply to. `home` is
 * opened up (0755) so that user can reach it; the test then closes what it
 * wants closed.
 */
export function runClaudecmUnprivileged(
  args: string[],
  options: RunOptions & { home: string; stdout?: "piped" | "null" },
): Promise<RunResult> {
  Deno.chmodSync(options.home, 0o755);
  const asRoot = Deno.uid() === 0;
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-all", "--quiet", MAIN, ...args],
    env: { ...childBaseEnv(), NO_COLOR: "1", ...options.env },
    clearEnv: true,
    cwd: options.cwd,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
    ...(asRoot ? { uid: NOBODY, gid: NOBODY } : {}),
  }).spawn();
  return collectOutput(child, options.stdin ?? "");
}

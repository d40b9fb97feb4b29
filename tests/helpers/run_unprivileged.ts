/**
 * Run claudecm where file permissions apply. Permission tests chmod a folder
 * and expect claudecm to be refused; root is never refused, and CI runs as
 * root, so as root the child runs as `nobody` (uid 65534) instead.
 *
 * @module
 */

import { childBaseEnv, collectOutput } from "./child.ts";
import { claudecmInvocation, type RunOptions, type RunResult } from "./run_cli.ts";

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
  // As run_cli.ts does: CLAUDECM_BIN, when set, is the claudecm under test.
  const [program, leading] = claudecmInvocation(Deno.env.get("CLAUDECM_BIN"));
  const child = new Deno.Command(program, {
    args: [...leading, ...args],
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

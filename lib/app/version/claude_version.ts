/**
 * The second line of `claudecm --version`: the version of the claude that
 * claudecm would start, so one command answers "what am I running".
 *
 * @module
 */

import type { OsName } from "../../core/paths.ts";
import { createClaudeAdapter } from "../../platform/claude.ts";
import { locateTool } from "../../platform/find_executable.ts";

/** `--version` is asked for by people waiting at a prompt: a hung claude must not hold it. */
const VERSION_TIMEOUT_MS = 5_000;

/** `claude 2.1.332 (Claude Code)`; null when claude is not found or gives no version. */
export async function claudeVersionLine(
  env: Record<string, string>,
  { os }: { os: OsName },
): Promise<string | null> {
  const located = locateTool("claude", {
    env: (name) => env[name],
    os,
    home: env.HOME ?? env.USERPROFILE ?? "",
  });
  if (!located.found) return null;
  const claude = createClaudeAdapter(located.path, {
    env: () => env,
    // Where this process is: its name may be one Deno cannot give (not UTF-8), and is not needed.
    cwd: () => undefined,
    os,
    featuresCacheFile: "",
    probeTimeoutMs: VERSION_TIMEOUT_MS,
  });
  try {
    const version = await claude.version();
    return version === null ? null : `claude ${version}`;
  } catch {
    return null;
  }
}

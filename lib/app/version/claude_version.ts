/**
 * The second line of `claudecm --version`: the version of the claude that
 * claudecm would start, so one command answers "what am I running".
 *
 * @module
 */

import type { OsName } from "../../core/paths.ts";
import { createClaudeAdapter } from "../../platform/claude.ts";
import { locateTool } from "../../platform/find_executable.ts";
import { CLAUDE_INSTALL_HINT } from "../../platform/tools.ts";

/** What is said of a claude that does not answer `--version`. */
const NO_VERSION = (path: string): string =>
  `claude: ${path} gave no version (claudecm doctor says more)`;

/** `--version` is asked for by people waiting at a prompt: a hung claude must not hold it. */
const VERSION_TIMEOUT_MS = 5_000;

/**
 * `claude 2.1.332 (Claude Code)`; when claude is not found, or gives no
 * version, a line saying so and what to do (`--help` promises claude's
 * version on the second line, so the line is never left out).
 */
export async function claudeVersionLine(
  env: Record<string, string>,
  { os }: { os: OsName },
): Promise<string> {
  const located = locateTool("claude", {
    env: (name) => env[name],
    os,
    home: env.HOME ?? env.USERPROFILE ?? "",
  });
  if (!located.found) {
    const why = located.badOverride === undefined
      ? CLAUDE_INSTALL_HINT.replace("install it with: ", "install: ")
      : `${located.badOverride.variable} is set to ${located.badOverride.value}, ` +
        "which is not an executable file";
    return `claude: not found (${why})`;
  }
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
    return version === null ? NO_VERSION(located.path) : `claude ${version}`;
  } catch {
    return NO_VERSION(located.path);
  }
}

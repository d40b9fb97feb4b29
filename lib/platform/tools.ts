/**
 * The external tools a flow may use (claude, cmv, the text editor), found on first use and remembered for
 * the run. `AppContext.tools` holds one; commands that never launch claude
 * never look for it, so a missing claude fails only what needs it. The
 * adapters and the spawning code behind them load on first use too: a run
 * that starts no tool (`list --json`, `find`) pays nothing for them.
 *
 * Tests get the fakes by putting CLAUDECM_CLAUDE / CLAUDECM_CMV in the
 * context's environment (tests/helpers/fakes.ts does), or hand a flow a
 * stub `Tools` directly.
 *
 * @module
 */

import { UserError } from "../core/errors.ts";
import type { EnvReader, OsName, Paths } from "../core/paths.ts";
import type { ClaudeAdapter } from "./claude.ts";
import type { CmvAdapter } from "./cmv.ts";
import type { LookupOptions, ToolMissing } from "./find_executable.ts";

/** claude, cmv and the text editor, as a flow sees them. */
export interface Tools {
  /** The claude adapter; rejects with a UserError saying what to install when claude is missing. */
  claude(): Promise<ClaudeAdapter>;
  /** The cmv adapter, or an absent one carrying the notice to show once. */
  cmv(): Promise<CmvAdapter>;
  /** Open `path` in the user's editor on the terminal; resolves with its exit code when it closes. */
  edit(path: string): Promise<number>;
}

/** What finding and running the tools needs. */
export interface ToolsOptions {
  env: EnvReader;
  /** The complete environment of the children (the process's, in production). */
  childEnv: () => Record<string, string>;
  /** Where probes and the editor start; where this process is when undefined. */
  cwd: () => string | undefined;
  os: OsName;
  paths: Paths;
  /** How long a `--version`/`--help` probe may take; 30 s unless a test wants it quick. */
  probeTimeoutMs?: number;
}

/** Tools found through the environment, lazily. */
export function createTools(options: ToolsOptions): Tools {
  let claude: ClaudeAdapter | undefined;
  let cmv: CmvAdapter | undefined;
  const lookup: LookupOptions = { env: options.env, os: options.os, home: options.paths.home };
  return {
    async claude() {
      if (claude) return claude;
      const [{ locateTool }, { createClaudeAdapter }] = await Promise.all([
        import("./find_executable.ts"),
        import("./claude.ts"),
      ]);
      // A missing claude is looked for again on the next call: nothing is remembered.
      const located = locateTool("claude", lookup);
      if (!located.found) throw new UserError(claudeMissingMessage(located));
      claude ??= createClaudeAdapter(located.path, {
        env: options.childEnv,
        cwd: options.cwd,
        os: options.os,
        featuresCacheFile: options.paths.path.join(options.paths.cmHome, "claude-features.json"),
        probeTimeoutMs: options.probeTimeoutMs,
      });
      return claude;
    },
    async cmv() {
      if (cmv) return cmv;
      const [{ locateTool }, { absentCmv, createCmvAdapter }] = await Promise.all([
        import("./find_executable.ts"),
        import("./cmv.ts"),
      ]);
      const located = locateTool("cmv", lookup);
      cmv ??= located.found
        ? createCmvAdapter(located.path, {
          env: options.childEnv,
          os: options.os,
          versionTimeoutMs: options.probeTimeoutMs,
        })
        : absentCmv(cmvMissingNotice(located));
      return cmv;
    },
    async edit(path) {
      const { editFile } = await import("./editor.ts");
      return await editFile(path, {
        env: options.env,
        childEnv: options.childEnv(),
        os: options.os,
        cwd: options.cwd(),
      });
    },
  };
}

/** How to install (or reinstall) claude, as the messages say it. */
export const CLAUDE_INSTALL_HINT = "install it with: npm install -g @anthropic-ai/claude-code";

/** Why claude cannot be run, and what to do. */
export function claudeMissingMessage(missing: ToolMissing): string {
  if (missing.badOverride) {
    const { variable, value } = missing.badOverride;
    return `${variable} is set to ${value}, which is not an executable file`;
  }
  return `claude (Claude Code) not found on PATH or at ${missing.defaults.join(", ")}; ` +
    CLAUDE_INSTALL_HINT;
}

/** Where cmv comes from (it is not on the npm registry). */
export const CMV_INSTALL_HINT = "install cmv from https://github.com/CosmoNaught/claude-code-cmv";

/** The one notice shown when cmv is missing (spec 12). */
export function cmvMissingNotice(missing: ToolMissing): string {
  const where = missing.badOverride
    ? `${missing.badOverride.variable} is set to ${missing.badOverride.value}, which is not an executable file`
    : `cmv not found on PATH or at ${missing.defaults.join(", ")}`;
  return `${where}: skipping snapshots, trim, refresh and token counts (${CMV_INSTALL_HINT})`;
}

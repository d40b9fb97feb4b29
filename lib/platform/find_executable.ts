/**
 * Finding claude and cmv (spec 2): an explicit override first
 * (`CLAUDECM_CLAUDE`, `CLAUDECM_CMV`: the path of the executable), then PATH
 * (with PATHEXT on Windows), then the spec's default install locations.
 * {@linkcode locateTool} only looks; lib/platform/tools.ts turns a missing
 * claude into a UserError and a missing cmv into an "absent" adapter.
 *
 * @module
 */

import { posix, win32 } from "../core/path.ts";
import type { EnvReader, OsName } from "../core/paths.ts";

/** The external tools claudecm runs. */
export type ToolName = "claude" | "cmv";

/** Where a tool was found, and how. */
export interface ToolFound {
  found: true;
  path: string;
  source: "override" | "path" | "default";
}

/** A tool that was not found, with what was tried, for the message. */
export interface ToolMissing {
  found: false;
  /** The override variable's value when it was set but names no executable. */
  badOverride?: { variable: string; value: string };
  /** The default locations that were tried after PATH. */
  defaults: string[];
}

/** The environment a lookup reads. */
export interface LookupOptions {
  env: EnvReader;
  os: OsName;
  /** The user's home, for the default locations. */
  home: string;
}

/** The override variable of each tool. */
const OVERRIDE_VARIABLE: Record<ToolName, string> = {
  claude: "CLAUDECM_CLAUDE",
  cmv: "CLAUDECM_CMV",
};

/** Find a tool: override, then PATH, then its default locations. */
export function locateTool(tool: ToolName, options: LookupOptions): ToolFound | ToolMissing {
  const variable = OVERRIDE_VARIABLE[tool];
  const override = options.env(variable);
  const defaults = defaultLocations(tool, options.os, options.home);
  if (override !== undefined && override.trim() !== "") {
    if (isExecutableFile(override, options.os)) {
      return { found: true, path: override, source: "override" };
    }
    return { found: false, badOverride: { variable, value: override }, defaults };
  }
  const onPath = findOnPath(tool, options);
  if (onPath !== undefined) return { found: true, path: onPath, source: "path" };
  const fallback = defaults.find((path) => isExecutableFile(path, options.os));
  if (fallback !== undefined) return { found: true, path: fallback, source: "default" };
  return { found: false, defaults };
}

/** Where spec 2 says each tool is installed when it is not on PATH. */
export function defaultLocations(tool: ToolName, os: OsName, home: string): string[] {
  const path = os === "windows" ? win32 : posix;
  if (tool === "claude") {
    return [path.join(home, ".local", "bin", os === "windows" ? "claude.exe" : "claude")];
  }
  if (os === "windows") return [path.join(home, "AppData", "Roaming", "npm", "cmv.cmd")];
  return [path.join(home, ".npm-global", "bin", "cmv")];
}

/**
 * The first executable called `name` in PATH. On Windows a name without an
 * extension is tried with each PATHEXT extension, as cmd.exe does, so `cmv`
 * finds npm's `cmv.cmd`.
 */
export function findOnPath(
  name: string,
  options: { env: EnvReader; os: OsName },
): string | undefined {
  return pathCandidates(name, options).find((candidate) => isExecutableFile(candidate, options.os));
}

/** Every path PATH lookup tries for `name`, in order (pure: no file is touched). */
export function pathCandidates(name: string, options: { env: EnvReader; os: OsName }): string[] {
  const windows = options.os === "windows";
  const path = windows ? win32 : posix;
  const dirs = (options.env("PATH") ?? options.env("Path") ?? "").split(windows ? ";" : ":")
    .map((dir) => windows ? dir.replace(/^"(.*)"$/, "$1") : dir)
    .filter((dir) => dir !== "");
  const extensions = windows ? pathExtensions(options.env, name) : [""];
  return dirs.flatMap((dir) => extensions.map((extension) => path.join(dir, name + extension)));
}

/** A regular file that this OS would run: any file on Windows, one with an x bit elsewhere. */
export function isExecutableFile(path: string, os: OsName): boolean {
  try {
    const info = Deno.statSync(path);
    if (!info.isFile) return false;
    return os === "windows" || info.mode === null || (info.mode & 0o111) !== 0;
  } catch {
    return false;
  }
}

function pathExtensions(env: EnvReader, name: string): string[] {
  const extensions = (env("PATHEXT") ?? ".COM;.EXE;.BAT;.CMD").split(";").filter((ext) =>
    ext !== ""
  )
    .map((ext) => ext.toLowerCase());
  const own = win32.extname(name).toLowerCase();
  // A name that already carries a runnable extension is tried as given, first.
  return own !== "" && extensions.includes(own) ? ["", ...extensions] : extensions;
}

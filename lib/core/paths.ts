/**
 * Where claudecm and Claude Code keep their state (spec section 3). Resolved
 * once per run from the environment and handed to every flow, so tests point
 * everything at a temporary HOME by setting variables, never by patching.
 *
 * @module
 */

import { type PathFlavour, posix, win32 } from "./path.ts";
import { projectKey } from "./project_key.ts";
import { UserError } from "./errors.ts";
import { probePath } from "./fs_checks.ts";

/** Reads one environment variable; `Deno.env.get` in production. */
export type EnvReader = (name: string) => string | undefined;

/**
 * Operating systems, named as Deno names them (lib/platform/os.ts asks
 * which one this is; everything else is given it).
 */
export type OsName =
  | "darwin"
  | "linux"
  | "android"
  | "windows"
  | "freebsd"
  | "netbsd"
  | "aix"
  | "solaris"
  | "illumos";

/** Every file and directory claudecm reads or writes. */
export interface Paths {
  /** The user's home: HOME, or USERPROFILE on Windows. */
  home: string;
  /** Claude Code's root: CLAUDE_CONFIG_DIR, else `~/.claude`, in Unicode NFC as claude takes it. */
  claudeRoot: string;
  /** `<claudeRoot>/projects`, one folder per project key. */
  projectsDir: string;
  /**
   * CLAUDE_CODE_PROJECT_DIR_NAME, when claude honours it: every project's
   * transcripts are then in `<projectsDir>/<it>/` ({@linkcode projectFolderName}).
   */
  projectDirName?: string;
  /** `<claudeRoot>/sessions`, one `<pid>.json` per running claude. */
  sessionsDir: string;
  /** `<claudeRoot>/settings.json`. */
  settingsFile: string;
  /** Claude Code's own config, `.claude.json` in CLAUDE_CONFIG_DIR, else in HOME (per-project settings). */
  claudeJsonFile: string;
  /** claudecm's own state: CLAUDECM_HOME, else `~/.claudecm`. */
  cmHome: string;
  /** The registry, `sessions.txt`. */
  registryFile: string;
  /** The registry's lock file. */
  lockFile: string;
  /** `machine-name.txt`. */
  machineNameFile: string;
  /** Registry and settings backups, pre-trim files, fork predecessors (spec 3.1). */
  backupDir: string;
  /** Per-operation scratch dirs for refresh. */
  refreshTempDir: string;
  /** The vault: restorable copies of registered sessions, `<vaultDir>/<project key>/`. */
  vaultDir: string;
  /** Orphan and user-requested quarantine, kept apart from `backupDir` (spec 3.1). */
  quarantineRoot: string;
  /** One marker per claudecm running claude on a session now (lib/store/resume_marker.ts). */
  resumingDir: string;
  /** The path flavour of this OS, for joins that must match it. */
  path: PathFlavour;
}

/** Raised when no home directory can be found in the environment. */
export class MissingHomeError extends UserError {
  constructor(variable: string) {
    super(`cannot find your home directory: ${variable} is not set`);
    this.name = "MissingHomeError";
  }
}

/**
 * Raised when a variable that names a folder holds a relative path: it would
 * name another folder from each folder claudecm runs in (the registry
 * "vanishing" once the user is elsewhere), so it is refused like an unset one.
 */
export class RelativePathVariableError extends UserError {
  constructor(variable: string, value: string, { home }: { home: boolean }) {
    super(
      `${home ? "cannot find your home directory: " : ""}${variable} is ${value}, ` +
        "not an absolute path; set it to the folder's full path",
    );
    this.name = "RelativePathVariableError";
  }
}

/** Resolve every path from the environment of an OS. */
export function resolvePaths(env: EnvReader, os: OsName): Paths {
  const path = os === "windows" ? win32 : posix;
  const homeVariable = os === "windows" ? "USERPROFILE" : "HOME";
  // Windows falls back to HOME when USERPROFILE is unset.
  const variable = nonEmpty(env(homeVariable)) === undefined ? "HOME" : homeVariable;
  const home = nonEmpty(env(variable));
  if (home === undefined) throw new MissingHomeError(homeVariable);
  const absolute = (name: string, value: string | undefined) => {
    if (value !== undefined && !path.isAbsolute(value)) {
      throw new RelativePathVariableError(name, value, { home: name === variable });
    }
    return value;
  };
  absolute(variable, home);
  const configDir = absolute("CLAUDE_CONFIG_DIR", nonEmpty(env("CLAUDE_CONFIG_DIR")));
  // Claude Code 2.1.332 normalises its root to NFC: a CLAUDE_CONFIG_DIR typed in NFD (as macOS
  // hands out names) names another folder on Linux, and claude writes into the NFC one.
  const claudeRoot = (configDir ?? path.join(home, ".claude")).normalize("NFC");
  const projectDirName = configDir === undefined
    ? undefined
    : validProjectDirName(env("CLAUDE_CODE_PROJECT_DIR_NAME"));
  const cmHome = absolute("CLAUDECM_HOME", nonEmpty(env("CLAUDECM_HOME"))) ??
    path.join(home, ".claudecm");
  const registryFile = path.join(cmHome, "sessions.txt");
  return {
    home,
    claudeRoot,
    projectsDir: path.join(claudeRoot, "projects"),
    ...(projectDirName === undefined ? {} : { projectDirName }),
    sessionsDir: path.join(claudeRoot, "sessions"),
    settingsFile: path.join(claudeRoot, "settings.json"),
    claudeJsonFile: path.join(configDir ?? home, ".claude.json"),
    cmHome,
    registryFile,
    lockFile: `${registryFile}.lock`,
    machineNameFile: path.join(cmHome, "machine-name.txt"),
    backupDir: path.join(cmHome, "backup"),
    refreshTempDir: path.join(cmHome, "refresh-temp"),
    vaultDir: path.join(cmHome, "vault"),
    resumingDir: path.join(cmHome, "resuming"),
    quarantineRoot: os === "windows"
      ? path.join(home, "documents", "github", "claude-conversation-backup")
      : path.join(home, "claude-conversation-backup"),
    path,
  };
}

/**
 * Why Claude Code's root cannot hold claude's state (a file stands where its
 * folder must be); null when it can. Read as "missing", such a root shows an
 * empty world ("No saved sessions.") and hides what is wrong.
 */
export function claudeRootProblem(paths: Paths, env: EnvReader): string | null {
  if (probePath(paths.claudeRoot).kind !== "file") return null;
  return nonEmpty(env("CLAUDE_CONFIG_DIR")) === undefined
    ? `${paths.claudeRoot} is a file where claude keeps its state in a folder; move that file away`
    : `CLAUDE_CONFIG_DIR is ${paths.claudeRoot}, a file: claude keeps its state in a folder; ` +
      "point CLAUDE_CONFIG_DIR at a folder";
}

/**
 * The name of the folder under `projects/` (and under the vault) that holds
 * `dir`'s transcripts: CLAUDE_CODE_PROJECT_DIR_NAME when claude honours it,
 * else `dir`'s project key. Every "where are this folder's sessions" goes
 * through here or {@linkcode projectDirFor}.
 */
export function projectFolderName(paths: Paths, dir: string): string {
  return paths.projectDirName ?? projectKey(dir);
}

/** The Claude project folder that holds `dir`'s transcripts. */
export function projectDirFor(paths: Paths, dir: string): string {
  return paths.path.join(paths.projectsDir, projectFolderName(paths, dir));
}

/** The transcript path of session `guid` started in `dir`. */
export function transcriptPathFor(paths: Paths, dir: string, guid: string): string {
  return paths.path.join(projectDirFor(paths, dir), `${guid}.jsonl`);
}

/** The last component of a directory path, ignoring trailing separators. */
export function leafName(paths: Paths, dir: string): string {
  return paths.path.basename(dir.replace(/[\\/]+$/, "")) || dir;
}

/**
 * Where the files of a session started in `dir` go when they are set aside
 * (spec 3.1: a fork's predecessor, the pre-trim transcript, P#'s old copy):
 * `backup/<dir's leaf name>/`. A root folder (`/`, `C:\`) has no leaf name
 * a folder can take: `backup/root/`.
 */
export function sessionBackupDir(paths: Paths, dir: string): string {
  const leaf = paths.path.basename(dir.replace(/[\\/]+$/, ""));
  return paths.path.join(paths.backupDir, leaf === "" ? "root" : leaf);
}

/**
 * Claude Code 2.1.332 takes CLAUDE_CODE_PROJECT_DIR_NAME only with
 * CLAUDE_CONFIG_DIR set, and only a name of 1 to 64 of `[A-Za-z0-9_-]` that
 * is not a Windows device name; any other value it ignores (its bundle:
 * tests/real_claude_project_dir_contract_test.ts).
 */
function validProjectDirName(name: string | undefined): string | undefined {
  if (name === undefined || !/^[A-Za-z0-9_-]{1,64}$/.test(name)) return undefined;
  return /^(?:con|prn|aux|nul|com[0-9]|lpt[0-9])$/i.test(name) ? undefined : name;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === "" ? undefined : value;
}

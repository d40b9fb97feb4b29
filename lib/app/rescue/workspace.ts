/**
 * The workspace a rescue writes its threads into, and what its layout says
 * about a session (recover-session.md step 4, generalised beyond one HQ):
 * threads live in `<workspace>/workspace/threads/`, companies in
 * `<workspace>/companies/<name>/`, repositories in
 * `repos/<group>/<repo>` (the group is `private`, `public`, ...), and a repo
 * named `<company>` or `<company>-<suffix>` belongs to that company.
 *
 * @module
 */

import { basename, isAbsolute, join, relative, resolve } from "../../core/path.ts";
import { UserError } from "../../core/errors.ts";
import { probePath, subdirectoryNames } from "../../core/fs_checks.ts";

/** A workspace and the companies it knows. */
export interface Workspace {
  /** Absolute path of the workspace root. */
  root: string;
  /** `<root>/workspace/threads`. */
  threadsDir: string;
  /** Folder names under `<root>/companies/`, if any. */
  companies: string[];
}

/** Where threads go, relative to the workspace root. */
export const THREADS_SUBDIR = "workspace/threads";

/** The company of a session nothing ties to one. */
const PERSONAL = "personal";

const REPO_GROUPS = new Set(["private", "public", "shared", "work", "oss", "forks"]);

/** Open the workspace at the absolute path `root`; a missing folder is a UserError. */
export function openWorkspace(root: string): Workspace {
  const probe = probePath(root);
  if (probe.kind === "missing") throw new UserError(`workspace folder not found: ${root}`);
  if (probe.kind === "unreadable") {
    throw new UserError(`cannot look at the workspace folder (${probe.error}): ${root}`);
  }
  if (probe.kind !== "directory") throw new UserError(`the workspace is not a folder: ${root}`);
  // No companies folder: the repo-name rule alone decides.
  const companies = subdirectoryNames(join(root, "companies"));
  return { root, threadsDir: join(root, ...THREADS_SUBDIR.split("/")), companies };
}

/**
 * `file` relative to the workspace root with `/` separators (`.` for the root
 * itself), or as given when outside it.
 */
export function relativize(workspace: Workspace, file: string): string {
  if (!isAbsolute(file)) return file.replaceAll("\\", "/");
  const rel = relative(workspace.root, file);
  if (rel === "") return ".";
  if (rel.startsWith("..") || isAbsolute(rel)) return file;
  return rel.replaceAll("\\", "/");
}

/**
 * The company a session worked for: from its cwd (`companies/<co>` or a repo
 * under `repos/`), else from the files it touched (`companies/<co>/...`, the
 * most frequent), else {@linkcode PERSONAL}.
 */
export function detectCompany(workspace: Workspace, cwd: string | null, files: string[]): string {
  if (cwd !== null) {
    const parts = segments(cwd);
    const company = companyFolder(parts) ?? companyOfRepo(workspace, repoName(parts));
    if (company !== undefined) return company;
  }
  const counts = new Map<string, number>();
  for (const file of files) {
    const company = companyFolder(segments(relativize(workspace, file)));
    if (company !== undefined) counts.set(company, (counts.get(company) ?? 0) + 1);
  }
  let best: string | undefined;
  for (const [company, count] of counts) {
    if (best === undefined || count > counts.get(best)!) best = company;
  }
  return best ?? PERSONAL;
}

/**
 * A short project name for display: the workspace's own name for its root,
 * the repo for a cwd under `repos/`, else the cwd's last folder; the encoded
 * project dir name when the transcript records no cwd.
 */
export function projectName(workspace: Workspace, cwd: string | null, projectDir: string): string {
  if (cwd === null || cwd === "") return projectDir;
  if (resolve(cwd) === workspace.root) return basename(workspace.root);
  return repoName(segments(cwd)) ?? (basename(cwd) || cwd);
}

function segments(path: string): string[] {
  return path.split(/[\\/]+/).filter((part) => part !== "");
}

/** `<co>` of a path with a `companies/<co>` segment pair. */
function companyFolder(parts: string[]): string | undefined {
  const at = parts.lastIndexOf("companies");
  return at !== -1 && at + 1 < parts.length ? parts[at + 1] : undefined;
}

/** The repo of a path under `repos/<group>/<repo>` or `repos/<repo>`. */
function repoName(parts: string[]): string | undefined {
  const at = parts.lastIndexOf("repos");
  if (at === -1 || at + 1 >= parts.length) return undefined;
  const first = parts[at + 1];
  if (REPO_GROUPS.has(first.toLowerCase())) return parts[at + 2];
  return first;
}

/** A known company the repo is named after (longest match), else the name up to its first `-`. */
function companyOfRepo(workspace: Workspace, repo: string | undefined): string | undefined {
  if (repo === undefined) return undefined;
  const known = workspace.companies
    .filter((company) => repo === company || repo.startsWith(`${company}-`))
    .sort((a, b) => b.length - a.length);
  if (known.length > 0) return known[0];
  return repo.split("-")[0] || repo;
}

/**
 * Errors that end a command with a one-line message and a chosen exit code.
 * main.ts prints `claudecm: <message>`. An I/O failure the environment
 * caused becomes such a message through {@linkcode environmentUserError};
 * anything else is an internal error.
 *
 * @module
 */

/** Exit codes shared by every command (DESIGN.md section 1). */
export const ExitCode = {
  ok: 0,
  failure: 1,
  usage: 2,
  /** The session or transcript named cannot be found (recover, rescue, recall, skeleton). */
  notFound: 3,
  /** Ctrl-C at a prompt or while claudecm waits (128 + SIGINT, as a shell reports it). */
  interrupted: 130,
} as const;

/** A failure the user can act on: printed as one line, never a stack trace. */
export class UserError extends Error {
  readonly exitCode: number;
  constructor(message: string, exitCode: number = ExitCode.failure) {
    super(message);
    this.name = "UserError";
    this.exitCode = exitCode;
  }
}

/** A command line that does not parse. */
export class UsageError extends UserError {
  constructor(message: string) {
    super(message, ExitCode.usage);
    this.name = "UsageError";
  }
}

/**
 * Ctrl-C cancelled what claudecm was doing (DESIGN.md 5.14): nothing of the
 * cancelled step is written; what was saved before it stays.
 */
export class InterruptedError extends UserError {
  /** `by`: what cancelled it, when not Ctrl-C (a closed terminal's SIGHUP, a SIGTERM). */
  constructor(by = "Ctrl-C") {
    super(`cancelled (${by})`, ExitCode.interrupted);
    this.name = "InterruptedError";
  }
}

/** The message of a caught value, for a one-line report. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Failures the machine causes (permissions, a full or read-only disk...), not claudecm. */
type EnvironmentFailure =
  | "denied"
  | "readOnly"
  | "full"
  | "isDirectory"
  | "notDirectory"
  | "loop"
  | "nameTooLong"
  | "io"
  | "fileNotFolder"
  | "nowhere";

const FAILURE_BY_CODE: Record<string, EnvironmentFailure> = {
  EACCES: "denied",
  EPERM: "denied",
  EROFS: "readOnly",
  ENOSPC: "full",
  EDQUOT: "full",
  EISDIR: "isDirectory",
  ENOTDIR: "notDirectory",
  ELOOP: "loop",
  ENAMETOOLONG: "nameTooLong",
  EIO: "io",
};

/**
 * Record which file an I/O error concerns, for {@linkcode environmentUserError}.
 * Deno names the path in most messages but not for a write to an open file
 * (a full disk), and a temporary file's name means little to a user.
 */
export function withPath<T>(error: T, path: string): T {
  if (typeof error === "object" && error !== null) Object.assign(error, { path });
  return error;
}

/** Whether `error` is a write to a pipe whose reader has gone (`claudecm list --json | head`). */
export function isBrokenPipe(error: unknown): boolean {
  return error instanceof Deno.errors.BrokenPipe || codeOf(error) === "EPIPE";
}

/**
 * The one-line error a user can act on for an I/O failure the environment
 * caused, naming the path and the fix; null for anything else (a bug).
 */
export function environmentUserError(error: unknown): UserError | null {
  const found = environmentFailure(error);
  if (found === null) return null;
  const { failure } = found;
  const path = found.folder ?? pathOf(error);
  const subject = path ?? "a file claudecm needs";
  switch (failure) {
    case "denied":
      return new UserError(
        `permission denied: ${subject}; let your user read and write it and its folder ` +
          "(check with ls -ld; fix with chmod or chown)",
      );
    case "readOnly":
      return new UserError(
        `${subject} is on a read-only file system; make it writable ` +
          "(or set CLAUDECM_HOME to a writable folder for claudecm's own files)",
      );
    case "full":
      return new UserError(`no space left to write ${subject}; free some disk space and run again`);
    case "isDirectory":
      return new UserError(`${subject} is a folder where claudecm needs a file; move it away`);
    case "notDirectory":
      return new UserError(
        `part of ${subject} is a file where claudecm needs a folder; move that file away`,
      );
    case "loop":
      return new UserError(
        `a symbolic link in ${subject} leads round in a loop; point it at a real file or folder`,
      );
    case "nameTooLong":
      return new UserError(`a name in ${subject} is too long for the file system; shorten it`);
    case "io":
      return new UserError(`the disk failed to read or write ${subject} (I/O error); check it`);
    case "fileNotFolder":
      return new UserError(`${subject} is a file where claudecm needs a folder; move it away`);
    case "nowhere":
      return new UserError(
        `cannot write ${subject}: a folder on its path is missing, or it is a symbolic link ` +
          "to nothing; fix or remove the link",
      );
  }
}

/** What kind of environment failure `error` is, and the folder a file operation met, if any. */
export function environmentFailure(
  error: unknown,
): { failure: EnvironmentFailure; folder: string | null } | null {
  const failure = error instanceof Deno.errors.PermissionDenied
    ? "denied"
    : error instanceof Deno.errors.IsADirectory
    ? "isDirectory"
    : error instanceof Deno.errors.NotADirectory
    ? "notDirectory"
    : FAILURE_BY_CODE[codeOf(error) ?? ""] ?? misplacedFailure(error);
  if (failure === null) return null;
  if (failure !== "denied" && failure !== "isDirectory") return { failure, folder: null };
  // Looked at once: a "denied" on a folder is that folder's fault, not a permission's.
  const folder = folderOpenedAsFile(error);
  return { failure: folder === null ? failure : "isDirectory", folder };
}

/**
 * A folder that cannot be made because a file has its name, or a file that
 * cannot be written because its folder or its link's target is missing:
 * only these operations, where the user's files (not a race) are the cause.
 */
function misplacedFailure(error: unknown): EnvironmentFailure | null {
  const operation = /\(os error \d+\): (\w+) '/.exec(errorMessage(error))?.[1];
  if (error instanceof Deno.errors.AlreadyExists && operation === "mkdir") {
    // Windows says "already exists" too when a folder on the way is a file.
    const path = pathOf(error);
    return path !== null && isFileThere(path) ? "fileNotFolder" : "notDirectory";
  }
  if (error instanceof Deno.errors.NotFound && operation === "writefile") return "nowhere";
  return null;
}

/** Operations (as Deno's messages name them) that open their paths as files. */
const FILE_OPERATIONS = new Set(["open", "readfile", "writefile", "copy", "truncate"]);

/**
 * The folder a file operation was refused on, when that is what a "denied"
 * means: Windows answers "access denied" for opening a folder as a file (or
 * renaming a file onto one), and the folder, not a permission, is the cause.
 */
function folderOpenedAsFile(error: unknown): string | null {
  const match = /\(os error \d+\): (\w+) '(.*?)'(?: -> '(.*)')?$/.exec(errorMessage(error));
  if (match === null) return null;
  const [, operation, from, to] = match;
  const paths = operation === "rename" ? [to] : FILE_OPERATIONS.has(operation) ? [from, to] : [];
  return paths.find((path) => path !== undefined && isFolder(path)) ?? null;
}

/** Whether something that is not a folder stands at `path` (kept here for the same reason). */
function isFileThere(path: string): boolean {
  try {
    return !Deno.statSync(path).isDirectory;
  } catch {
    return false;
  }
}

/** fs_checks.isDirectory, kept here: every run loads this module, and --help loads no other. */
function isFolder(path: string): boolean {
  try {
    return Deno.statSync(path).isDirectory;
  } catch {
    return false;
  }
}

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : undefined;
}

/** The path an error carries ({@linkcode withPath}), else the first one Deno's message names. */
function pathOf(error: unknown): string | null {
  const path = (error as { path?: unknown } | null)?.path;
  if (typeof path === "string") return path;
  // Deno: "Permission denied (os error 13): open '/x'" or "...: rename '/a' -> '/b'".
  const match = /\(os error \d+\): \w+ '(.*?)'(?: -> '.*')?$/.exec(errorMessage(error));
  return match?.[1] ?? null;
}

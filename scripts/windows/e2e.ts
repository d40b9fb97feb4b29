/**
 * The Windows end-to-end check (scripts/windows_checks.sh runs it with the
 * Windows Deno): `claudecm new -- <hostile arguments>` and then `claudecm
 * resume 1`, against a claude found through PATH and PATHEXT, once as
 * `claude.exe` and once as an npm-style `claude.cmd` shim in front of it.
 * That claude is scripts/windows/claude_logger.c, which logs its raw command
 * line, CommandLineToArgvW's split and the C runtime's argv; every argument
 * must arrive intact in both splits. The machine name, saved as a first run
 * in a terminal saves it (a run without one asks nothing), is hostile too.
 * USERPROFILE is the only home given.
 *
 * Usage: deno run -A scripts/windows/e2e.ts <claude.exe built from claude_logger.c>
 *
 * @module
 */

import { join } from "../../lib/core/path.ts";
import { projectDirFor, resolvePaths } from "../../lib/core/paths.ts";
import { HOSTILE_ARGS as SHARED_HOSTILE_ARGS } from "../release/hostile_args.ts";

/** The shared hostile arguments, and an option-like one the logger takes as it comes. */
export const HOSTILE_ARGS: readonly string[] = [...SHARED_HOSTILE_ARGS, "--flag=value with space"];

/** A machine name with the characters that break a command line. */
const MACHINE = 'desk "&|^%PATH%!<>() é';
/** A project folder name Windows allows, full of what cmd.exe treats specially. */
const PROJECT = "proj & ^ % ! ( ) , ; = 'é 日本";

interface LogEntry {
  raw: string;
  win32: string[];
  crt: string[];
}

const [loggerExe] = Deno.args;
if (loggerExe === undefined) {
  console.error("usage: e2e.ts <claude.exe built from claude_logger.c>");
  Deno.exit(2);
}
const mainTs = new URL("../../main.ts", import.meta.url);
const failures: string[] = [];

function check(what: string, ok: boolean, detail: unknown = ""): void {
  console.log(`${ok ? "ok  " : "FAIL"} ${what}`);
  if (!ok) {
    failures.push(what);
    console.log(`     ${JSON.stringify(detail)}`);
  }
}

/** A PATH folder holding claude as `flavour`: the program itself, or a shim npm would write. */
function installClaude(root: string, flavour: "exe" | "cmd"): string {
  const bin = join(root, "bin");
  Deno.mkdirSync(bin, { recursive: true });
  if (flavour === "exe") {
    Deno.copyFileSync(loggerExe, join(bin, "claude.exe"));
    return bin;
  }
  const target = join(bin, "node_modules", "@anthropic-ai", "claude-code", "bin");
  Deno.mkdirSync(target, { recursive: true });
  Deno.copyFileSync(loggerExe, join(target, "claude.exe"));
  // What npm's cmd-shim writes for a native bin.
  const shim = [
    "@ECHO off",
    "GOTO start",
    ":find_dp0",
    "SET dp0=%~dp0",
    "EXIT /b",
    ":start",
    "SETLOCAL",
    "CALL :find_dp0",
    '"%dp0%\\node_modules\\@anthropic-ai\\claude-code\\bin\\claude.exe"   %*',
    "",
  ].join("\r\n");
  Deno.writeTextFileSync(join(bin, "claude.cmd"), shim);
  return bin;
}

async function claudecm(
  args: string[],
  options: { cwd: string; env: Record<string, string>; stdin: string },
): Promise<{ code: number; out: string }> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", mainTs.href, ...args],
    cwd: options.cwd,
    env: options.env,
    clearEnv: true,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(options.stdin));
  await writer.close();
  const done = await child.output();
  const decoder = new TextDecoder();
  return { code: done.code, out: decoder.decode(done.stdout) + decoder.decode(done.stderr) };
}

function launches(log: string): LogEntry[] {
  let text = "";
  try {
    text = Deno.readTextFileSync(log);
  } catch {
    return [];
  }
  return text.split("\n").filter((line) => line !== "").map((line) => JSON.parse(line) as LogEntry)
    .filter((entry) => !["--version", "--help"].includes(entry.crt[0]));
}

/** The argument after `flag`, in both splits, checked equal. */
function valueAfter(entry: LogEntry, flag: string): string | undefined {
  const at = entry.crt.indexOf(flag);
  return at < 0 ? undefined : entry.crt[at + 1];
}

function same(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((value, i) => value === b[i]);
}

async function runFlavour(root: string, flavour: "exe" | "cmd"): Promise<void> {
  const home = join(root, "home");
  const project = join(root, PROJECT);
  Deno.mkdirSync(home, { recursive: true });
  Deno.mkdirSync(project, { recursive: true });
  const bin = installClaude(root, flavour);
  const system = Deno.env.get("SystemRoot") ?? "C:\\windows";
  const env: Record<string, string> = {
    USERPROFILE: home,
    PATH: `${bin};${system}\\system32;${system}`,
    PATHEXT: ".COM;.EXE;.BAT;.CMD",
    SystemRoot: system,
    ComSpec: Deno.env.get("ComSpec") ?? `${system}\\system32\\cmd.exe`,
    TEMP: Deno.env.get("TEMP") ?? root,
    TMP: Deno.env.get("TMP") ?? root,
    ARGV_LOG: join(root, "argv.jsonl"),
    CLAUDECM_CMV: join(root, "no-cmv-here"),
    NO_COLOR: "1",
  };
  const paths = resolvePaths((name) => env[name], "windows");
  const transcripts = projectDirFor(paths, project);
  Deno.mkdirSync(transcripts, { recursive: true });
  env.FAKE_TRANSCRIPT_DIR = transcripts;
  // Stdin is no terminal here, so claudecm asks no machine name: it reads the saved one.
  Deno.mkdirSync(paths.cmHome, { recursive: true });
  Deno.writeTextFileSync(paths.machineNameFile, `${MACHINE}\n`);

  const fresh = await claudecm(["new", "--", ...HOSTILE_ARGS], {
    cwd: project,
    env,
    stdin: "",
  });
  check(`${flavour}: claudecm new exits 0`, fresh.code === 0, fresh.out);
  const [first] = launches(env.ARGV_LOG);
  check(`${flavour}: claudecm new started claude through PATH/PATHEXT`, first !== undefined);
  if (first === undefined) return;
  check(`${flavour}: CommandLineToArgvW and the CRT split alike`, same(first.win32, first.crt), {
    raw: first.raw,
    win32: first.win32,
    crt: first.crt,
  });
  const tail = first.crt.slice(-HOSTILE_ARGS.length);
  check(`${flavour}: every hostile argument arrives intact`, same(tail, HOSTILE_ARGS), {
    raw: first.raw,
    got: tail,
  });
  // `<machine> - <name>`, the name being the folder's, capitalised.
  const named = (entry: LogEntry) =>
    valueAfter(entry, "-n")?.toLowerCase() === `${MACHINE} - ${PROJECT}`.toLowerCase();
  check(`${flavour}: the hostile machine and folder names arrive in -n`, named(first), {
    raw: first.raw,
    got: valueAfter(first, "-n"),
  });
  const id = valueAfter(first, "--session-id");

  const resumed = await claudecm(["resume", "1"], { cwd: project, env, stdin: "" });
  check(`${flavour}: claudecm resume 1 exits 0`, resumed.code === 0, resumed.out);
  const second = launches(env.ARGV_LOG)[1];
  check(
    `${flavour}: resume 1 resumes the session new started`,
    second !== undefined &&
      id !== undefined && valueAfter(second, "--resume") === id,
    second?.crt,
  );
  if (second === undefined) return;
  check(`${flavour}: resume 1 splits alike`, same(second.win32, second.crt), second);
  check(`${flavour}: resume 1 names the session with the machine and folder names`, named(second), {
    raw: second.raw,
    got: valueAfter(second, "-n"),
  });
}

const root = Deno.makeTempDirSync({ prefix: "claudecm-windows-e2e-" });
try {
  for (const flavour of ["exe", "cmd"] as const) await runFlavour(join(root, flavour), flavour);
} finally {
  Deno.removeSync(root, { recursive: true });
}
console.log(failures.length === 0 ? "e2e: all checks passed" : `e2e: ${failures.length} failed`);
Deno.exit(failures.length === 0 ? 0 : 1);

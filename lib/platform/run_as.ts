/**
 * Running as root (DESIGN.md 5.5 and 5.6, spec 11.6 Linux notes). As root,
 * `$HOME` is /root, so state would land in the wrong place, and claude
 * refuses `--dangerously-skip-permissions` unless IS_SANDBOX=1. So when
 * claudecm runs as root and the run-as user (`CLAUDECM_RUN_AS`, default
 * `claude`) exists, it re-executes itself as that user, same args and cwd.
 * As root with no such user, it stays, and passes the bypass flag only under
 * IS_SANDBOX=1, saying so in one line otherwise.
 *
 * Decisions are pure ({@linkcode decideRunAs}, {@linkcode permissionArgs});
 * {@linkcode runAsFacts} gathers what they need and {@linkcode reexec} acts:
 *
 * ```ts
 * const decision = decideRunAs(runAsFacts(env));
 * if (decision.action === "reexec") Deno.exit(await reexec(decision));
 * if (decision.notice) ctx.err.line(decision.notice, "yellow");
 * const flags = permissionArgs(env, decision.bypassAllowed);
 * ```
 *
 * @module
 */

import { fileURLToPath } from "node:url";
import type { EnvReader, OsName } from "../core/paths.ts";
import { findOnPath } from "./find_executable.ts";
import { hostOs } from "./os.ts";
import { spawnInteractive } from "./spawn.ts";

/** A user account, as `getent passwd` describes it. */
export interface PasswdEntry {
  name: string;
  uid: number;
  home: string;
  shell: string;
}

/** Everything {@linkcode decideRunAs} looks at. */
export interface RunAsFacts {
  os: OsName;
  /** The effective uid; null on Windows. */
  uid: number | null;
  env: EnvReader;
  /** The run-as user's account, or null when there is no such user. */
  user: PasswdEntry | null;
  /** Paths of the switchers found on PATH. */
  sudo: string | null;
  runuser: string | null;
  /** The command line that starts this claudecm again: executable, then args. */
  self: string[];
  /**
   * Root's own permissions choice (its config file or environment): "ask"
   * goes along to the other user, so a switch never turns asking into the
   * bypass flag.
   */
  permissions?: "ask" | "bypass";
}

/** Re-execute claudecm as another user. */
export interface Reexec {
  action: "reexec";
  user: string;
  command: string;
  args: string[];
}

/** Carry on as the current user. */
export interface Stay {
  action: "stay";
  /** Whether claude will accept `--dangerously-skip-permissions`. */
  bypassAllowed: boolean;
  /** One line to show when the usual behaviour is not possible. */
  notice?: string;
}

/** The default run-as user, as in the old bash script. */
const DEFAULT_RUN_AS = "claude";

/**
 * Variables carried across the switch; the rest is the target user's own.
 * The user's claudecm choices go along (a permissions choice of "ask" must
 * not become the bypass flag on the other side), and the editor a refresh
 * opens. Root's state (CLAUDECM_HOME, CLAUDE_CONFIG_DIR) does not.
 */
const CARRIED = [
  "PATH",
  "TERM",
  "COLORTERM",
  "NO_COLOR",
  "LANG",
  "LC_ALL",
  "LC_CTYPE",
  "TZ",
  "EDITOR",
  "VISUAL",
  "CLAUDECM_PERMISSIONS",
  "CLAUDECM_PERMISSION_MODE",
  "CLAUDECM_CLAUDE",
  "CLAUDECM_CMV",
  "CLAUDECM_VAULT",
  "CLAUDECM_DEBUG",
];

/** Decide whether to re-exec as the run-as user, and whether the bypass flag may be passed. */
export function decideRunAs(facts: RunAsFacts): Reexec | Stay {
  if (facts.os === "windows" || facts.uid !== 0) return { action: "stay", bypassAllowed: true };
  const sandbox = facts.env("IS_SANDBOX") === "1";
  const name = runAsName(facts.env);
  // A re-exec that came back as root (run-as user with uid 0) must not loop.
  const reexeced = facts.env("CLAUDECM_REEXECED") === "1";
  if (facts.user === null) {
    return stayAsRoot(
      sandbox,
      `running as root with no '${name}' user to switch to (set CLAUDECM_RUN_AS)`,
    );
  }
  if (facts.user.uid === 0 || reexeced) {
    return stayAsRoot(sandbox, `running as root (run-as user '${name}' is root)`);
  }
  const switcher = switchCommand(facts, facts.user);
  if (switcher !== null) return { action: "reexec", user: facts.user.name, ...switcher };
  return stayAsRoot(
    sandbox,
    `cannot switch to user '${name}': neither sudo nor runuser is on PATH`,
  );
}

/**
 * The permission flags for claude (DESIGN.md 5.6): `--permission-mode MODE`
 * when CLAUDECM_PERMISSION_MODE is set, else the bypass flag when allowed,
 * else none.
 */
export function permissionArgs(env: EnvReader, bypassAllowed: boolean): string[] {
  const mode = env("CLAUDECM_PERMISSION_MODE")?.trim();
  if (mode) return ["--permission-mode", mode];
  return bypassAllowed ? ["--dangerously-skip-permissions"] : [];
}

/** The run-as user's name: CLAUDECM_RUN_AS, else `claude`. */
export function runAsName(env: EnvReader): string {
  const name = env("CLAUDECM_RUN_AS")?.trim();
  return name ? name : DEFAULT_RUN_AS;
}

/** One line of /etc/passwd (or `getent passwd`) as an entry; null if malformed. */
export function parsePasswdLine(line: string): PasswdEntry | null {
  const fields = line.trim().split(":");
  if (fields.length < 7 || !/^\d+$/.test(fields[2])) return null;
  return { name: fields[0], uid: Number(fields[2]), home: fields[5], shell: fields[6] };
}

function stayAsRoot(sandbox: boolean, why: string): Stay {
  if (sandbox) return { action: "stay", bypassAllowed: true };
  return {
    action: "stay",
    bypassAllowed: false,
    notice:
      `${why} and IS_SANDBOX is not 1: starting claude without --dangerously-skip-permissions, ` +
      "which claude refuses as root",
  };
}

/**
 * `sudo -u USER -H -- env -i VARS... self...` (or runuser). `env -i` gives
 * both switchers the same clean environment: the user's HOME, USER, LOGNAME
 * and SHELL, the terminal and locale variables, and a marker against loops.
 * Root's CLAUDE_CONFIG_DIR or CLAUDECM_HOME would point into root's state,
 * so they are not carried. Both keep the cwd.
 */
function switchCommand(
  facts: RunAsFacts,
  user: PasswdEntry,
): { command: string; args: string[] } | null {
  const vars = [
    `HOME=${user.home}`,
    `USER=${user.name}`,
    `LOGNAME=${user.name}`,
    `SHELL=${user.shell}`,
    ...CARRIED.flatMap((name) => {
      const value = name === "CLAUDECM_PERMISSIONS" && facts.permissions === "ask"
        ? "ask"
        : facts.env(name);
      return value === undefined ? [] : [`${name}=${value}`];
    }),
    "CLAUDECM_REEXECED=1",
  ];
  const rest = ["--", "env", "-i", ...vars, ...facts.self];
  if (facts.sudo !== null) return { command: facts.sudo, args: ["-u", user.name, "-H", ...rest] };
  if (facts.runuser !== null) return { command: facts.runuser, args: ["-u", user.name, ...rest] };
  return null;
}

/** Gather the facts of this process (the impure half of the decision). */
export function runAsFacts(env: EnvReader): RunAsFacts {
  const os = hostOs;
  const uid = os === "windows" ? null : Deno.uid();
  const root = uid === 0;
  return {
    os,
    uid,
    env,
    user: root ? lookupUser(runAsName(env)) : null,
    sudo: root ? findOnPath("sudo", { env, os }) ?? null : null,
    runuser: root ? findOnPath("runuser", { env, os }) ?? null : null,
    self: selfCommand(),
  };
}

/** A user's account via `getent passwd` (LDAP users too), else /etc/passwd. */
export function lookupUser(name: string): PasswdEntry | null {
  if (!/^[a-z_][a-z0-9_.-]*\$?$/i.test(name)) return null;
  try {
    const output = new Deno.Command("getent", {
      args: ["passwd", name],
      stdout: "piped",
      stderr: "null",
    })
      .outputSync();
    if (output.code === 0) return parsePasswdLine(new TextDecoder().decode(output.stdout));
    if (output.code === 2) return null; // getent: key not found
  } catch {
    // No getent (macOS, minimal images): read the file.
  }
  try {
    const line = Deno.readTextFileSync("/etc/passwd").split("\n").find((l) =>
      l.startsWith(`${name}:`)
    );
    return line === undefined ? null : parsePasswdLine(line);
  } catch {
    return null;
  }
}

/** The command line that starts this claudecm: the binary, or deno running main.ts. */
export function selfCommand(): string[] {
  if (Deno.build.standalone) return [Deno.execPath(), ...Deno.args];
  return [Deno.execPath(), "run", "--allow-all", fileURLToPath(Deno.mainModule), ...Deno.args];
}

/** Run the re-exec on this terminal and return its exit code, for the caller to exit with. */
export async function reexec(decision: Reexec): Promise<number> {
  // Where this process is (undefined): its name may be one Deno cannot give, not UTF-8.
  const child = spawnInteractive(decision.command, decision.args, {
    cwd: undefined,
    env: Deno.env.toObject(),
  });
  return await child.status;
}

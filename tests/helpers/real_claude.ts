/**
 * Running the real Claude Code CLI for contract tests, offline and in a
 * throwaway HOME (reference/real-claude-howto.md). The CLI comes from
 * CLAUDECM_REAL_CLAUDE (set by .ci/run, or locally after
 * scripts/install_real_claude.sh); without it the contract tests are
 * ignored, visibly. Interactive mode needs a pseudo-terminal, which
 * util-linux `script` provides on Linux.
 *
 * @module
 */

import { type ChildOutput, collectOutput } from "./child.ts";

/** The real claude executable, when the tests may use it. */
export const REAL_CLAUDE: string | undefined = Deno.env.get("CLAUDECM_REAL_CLAUDE") || undefined;

/** The version the reference files and the fake imitate. */
export const PINNED_VERSION = "2.1.332";

/** Whether util-linux `script` can give claude a pseudo-terminal here. */
export const HAVE_PTY: boolean = Deno.build.os === "linux" && (() => {
  try {
    const output = new Deno.Command("script", {
      args: ["--version"],
      stdout: "piped",
      stderr: "null",
    })
      .outputSync();
    return new TextDecoder().decode(output.stdout).includes("util-linux");
  } catch {
    return false;
  }
})();

/** A throwaway HOME for the real CLI. */
export interface RealWorld {
  dir: string;
  home: string;
  /** `<home>/.claude`, Claude Code's root. */
  root: string;
  env: Record<string, string>;
  /** A new directory (realpath) under the world, trusted for interactive use. */
  project(relative: string): string;
  cleanup(): void;
}

/** What a real claude run printed. */
export type RealRun = ChildOutput;

/** Make a throwaway HOME; no credentials, telemetry and updates off. */
export function createRealWorld(): RealWorld {
  const dir = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "claudecm-real-" }));
  const home = `${dir}/home`;
  const tmp = `${dir}/tmp`;
  Deno.mkdirSync(home);
  Deno.mkdirSync(tmp);
  const trusted: Record<string, { hasTrustDialogAccepted: boolean }> = {};
  const writeClaudeJson = () =>
    Deno.writeTextFileSync(
      `${home}/.claude.json`,
      JSON.stringify({ hasCompletedOnboarding: true, projects: trusted }),
    );
  writeClaudeJson();
  return {
    dir,
    home,
    root: `${home}/.claude`,
    env: {
      PATH: "/usr/local/bin:/usr/bin:/bin",
      HOME: home,
      TMPDIR: tmp,
      CLAUDE_CODE_TMPDIR: tmp,
      XDG_RUNTIME_DIR: tmp,
      DISABLE_TELEMETRY: "1",
      DISABLE_AUTOUPDATER: "1",
      TERM: "xterm-256color",
    },
    project(relative) {
      const path = `${dir}/${relative}`;
      Deno.mkdirSync(path, { recursive: true });
      const real = Deno.realPathSync(path);
      trusted[real] = { hasTrustDialogAccepted: true };
      writeClaudeJson();
      return real;
    },
    cleanup: () => Deno.removeSync(dir, { recursive: true }),
  };
}

/** A session `id` with one printed exchange (`claude -p`, not logged in) in `cwd`, to resume. */
export async function seedPrintedSession(world: RealWorld, id: string, cwd: string): Promise<void> {
  const seeded = new Deno.Command(REAL_CLAUDE!, {
    args: ["-p", "--session-id", id],
    cwd,
    env: world.env,
    clearEnv: true,
    stdin: "piped",
    stdout: "null",
    stderr: "null",
  }).spawn();
  const writer = seeded.stdin.getWriter();
  await writer.write(new TextEncoder().encode("hi\n"));
  await writer.close();
  await seeded.status;
}

/** Run the real claude to completion (non-interactive: stdout is a pipe). */
export async function runReal(
  world: RealWorld,
  args: string[],
  options: { cwd: string; stdin?: string; env?: Record<string, string> },
): Promise<RealRun> {
  const child = new Deno.Command(REAL_CLAUDE!, {
    args,
    cwd: options.cwd,
    env: { ...world.env, ...options.env },
    clearEnv: true,
    stdin: options.stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  return await collectOutput(child, options.stdin);
}

/** The real claude in a pseudo-terminal, typed at like a person would. */
export interface Terminal {
  /** Type text, then (separately, as a person would) a carriage return. */
  enter(text: string): Promise<void>;
  /** Type raw keys (e.g. "\x03" for Ctrl-C). */
  type(keys: string): Promise<void>;
  /** Everything shown so far, escape sequences removed. */
  screen(): string;
  /** The exit code (of claude, through `script -e`). */
  status: Promise<number>;
  /**
   * End it for good (a test's `finally`): SIGKILL claude itself (found by its
   * manifest) and `script`, then wait, so nothing writes into the world after
   * it is removed.
   */
  stop(): Promise<void>;
}

/** Terminal escape sequences (CSI, OSC, charset selection), removed from what is shown. */
// deno-lint-ignore no-control-regex
const ESCAPES = /\x1b\[[0-9;?<>=]*[a-zA-Z~]|\x1b\][^\x07]*\x07|\x1b[()][A-Z0-9]/g;

/** Start the real claude interactively under util-linux `script`. */
export function startInTerminal(world: RealWorld, args: string[], cwd: string): Terminal {
  const commandLine = [REAL_CLAUDE!, ...args].map(shellQuote).join(" ");
  const child = new Deno.Command("script", {
    args: ["-q", "-f", "-e", "-c", commandLine, "/dev/null"],
    cwd,
    env: world.env,
    clearEnv: true,
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  let raw = "";
  const drained = (async () => {
    const decoder = new TextDecoder();
    for await (const chunk of child.stdout) raw += decoder.decode(chunk, { stream: true });
  })();
  const writer = child.stdin.getWriter();
  const encoder = new TextEncoder();
  const status = (async () => {
    const ended = await child.status;
    await drained;
    await writer.close().catch(() => {});
    return ended.code;
  })();
  return {
    async type(keys) {
      await writer.write(encoder.encode(keys));
    },
    async enter(text) {
      await writer.write(encoder.encode(text));
      await sleep(400);
      await writer.write(encoder.encode("\r"));
    },
    screen: () => raw.replace(ESCAPES, ""),
    status,
    async stop() {
      for (const pid of manifestPids(`${world.home}/.claude/sessions`)) {
        if (!isOurClaude(pid, world.home)) continue;
        try {
          Deno.kill(pid, "SIGKILL");
        } catch {
          // Already gone.
        }
      }
      try {
        child.kill("SIGKILL");
      } catch {
        // Already gone.
      }
      await status;
    },
  };
}

/**
 * Whether `pid` is a real claude running in this world (its executable and
 * its HOME), so a stale manifest's reused pid is never killed.
 */
function isOurClaude(pid: number, home: string): boolean {
  try {
    const exe = Deno.realPathSync(`/proc/${pid}/exe`);
    const environ = Deno.readTextFileSync(`/proc/${pid}/environ`).split("\0");
    return exe === Deno.realPathSync(REAL_CLAUDE!) && environ.includes(`HOME=${home}`);
  } catch {
    return false;
  }
}

function manifestPids(dir: string): number[] {
  try {
    return [...Deno.readDirSync(dir)].map((e) => /^(\d+)\.json$/.exec(e.name)).filter((m) =>
      m !== null
    )
      .map((m) => Number(m![1]));
  } catch {
    return [];
  }
}

/** Resolve with `probe()`'s first non-undefined value, polling; throws after `timeoutMs`. */
export async function eventually<T>(
  probe: () => T | undefined,
  what: string,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (true) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

/** The `*.jsonl` names in a directory (empty when it does not exist). */
export function jsonlFiles(dir: string): string[] {
  try {
    return [...Deno.readDirSync(dir)].filter((e) => e.isFile && e.name.endsWith(".jsonl")).map((
      e,
    ) => e.name)
      .sort();
  } catch {
    return [];
  }
}

/** The project dirs under `<root>/projects`. */
export function projectDirs(root: string): string[] {
  try {
    return [...Deno.readDirSync(`${root}/projects`)].filter((e) => e.isDirectory).map((e) => e.name)
      .sort();
  } catch {
    return [];
  }
}

/** Parse a JSONL file. */
export function readJsonl(path: string): Record<string, unknown>[] {
  return Deno.readTextFileSync(path).split("\n").filter((l) => l.trim() !== "").map((l) =>
    JSON.parse(l)
  );
}

/** `arg` quoted for the POSIX shell that `script -c` runs. */
export function shellQuote(arg: string): string {
  return `'${arg.replaceAll("'", "'\\''")}'`;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * A temporary world in which the fake `claude` and `cmv` (fixtures/fake/)
 * run: a temp HOME with CLAUDE_CONFIG_DIR inside, an argv log, scenario
 * files, and the environment that points claudecm at the fakes
 * (CLAUDECM_CLAUDE, CLAUDECM_CMV). Tests never touch the real HOME.
 *
 * ```ts
 * const world = createFakeWorld();
 * world.claudeScenario({ messages: ["hello"] });
 * // spawn world.claudePath with world.env, or run claudecm with world.env
 * world.argv("claude"); // what the fake was called with
 * world.cleanup();
 * ```
 *
 * @module
 */

import { sleepSync } from "../../lib/core/sleep_sync.ts";
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { join } from "../../lib/core/path.ts";
import type { ClaudeScenario } from "../../fixtures/fake/claude.ts";
import type { CmvScenario } from "../../fixtures/fake/cmv.ts";
import { childBaseEnv, type ChildOutput, collectOutput } from "./child.ts";

const BIN = fileURLToPath(new URL("../../fixtures/bin/", import.meta.url));

/** The shim that runs a fake on this OS (`.cmd` on Windows). */
export function fakeToolPath(tool: "claude" | "cmv" | "editor"): string {
  return `${BIN}${tool}${Deno.build.os === "windows" ? ".cmd" : ""}`;
}

/** One recorded run of a fake. */
export interface ArgvEntry {
  tool: "claude" | "cmv";
  argv: string[];
  cwd: string;
  pid: number;
  /** Whether the fake had a terminal on stdin and stdout. */
  tty?: { stdin: boolean; stdout: boolean };
  /** The names of the `CLAUDE*` and `AI_AGENT` variables in its environment. */
  claudeEnv?: string[];
}

/** A temporary HOME plus everything needed to run the fakes in it. */
export interface FakeWorld {
  /** The temp dir holding everything (home, logs, scenarios). */
  dir: string;
  home: string;
  /** `<home>/.claude`. */
  claudeRoot: string;
  /** A project dir inside the world, created, as a realpath. */
  project: string;
  /** The complete environment for a child (claudecm or a fake). */
  env: Record<string, string>;
  claudePath: string;
  cmvPath: string;
  /** Write the fake claude's scenario. */
  claudeScenario(scenario: ClaudeScenario & { invocations?: ClaudeScenario[] }): void;
  /** Write the fake cmv's scenario. */
  cmvScenario(scenario: CmvScenario & { invocations?: CmvScenario[] }): void;
  /** Every run of the fakes so far, optionally of one tool. */
  argv(tool?: "claude" | "cmv"): ArgvEntry[];
  cleanup(): void;
}

/** Build a fake world in a new temp dir. */
export function createFakeWorld(): FakeWorld {
  const dir = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "claudecm-fake-" }));
  const home = join(dir, "home");
  const project = join(dir, "project");
  Deno.mkdirSync(home);
  Deno.mkdirSync(project);
  const argvLog = join(dir, "argv.jsonl");
  const claudeScenarioFile = join(dir, "claude-scenario.json");
  const cmvScenarioFile = join(dir, "cmv-scenario.json");
  Deno.writeTextFileSync(claudeScenarioFile, "{}");
  Deno.writeTextFileSync(cmvScenarioFile, "{}");
  const env: Record<string, string> = {
    ...childBaseEnv(),
    HOME: home,
    USERPROFILE: home,
    CLAUDE_CONFIG_DIR: join(home, ".claude"),
    NO_COLOR: "1",
    FAKE_DENO: Deno.execPath(),
    FAKE_ARGV_LOG: argvLog,
    FAKE_CLAUDE_SCENARIO: claudeScenarioFile,
    FAKE_CMV_SCENARIO: cmvScenarioFile,
    CLAUDECM_CLAUDE: fakeToolPath("claude"),
    CLAUDECM_CMV: fakeToolPath("cmv"),
    // Uniform behaviour whether or not the tests run as root: claude accepts the
    // bypass flag under IS_SANDBOX=1, and no run-as user exists to re-exec to.
    IS_SANDBOX: "1",
    CLAUDECM_RUN_AS: "claudecm-test-no-such-user",
  };
  return {
    dir,
    home,
    claudeRoot: join(home, ".claude"),
    project,
    env,
    claudePath: fakeToolPath("claude"),
    cmvPath: fakeToolPath("cmv"),
    claudeScenario: (scenario) => writeScenario(claudeScenarioFile, scenario),
    cmvScenario: (scenario) => writeScenario(cmvScenarioFile, scenario),
    argv(tool) {
      let text = "";
      try {
        text = Deno.readTextFileSync(argvLog);
      } catch {
        return [];
      }
      const entries = text.split("\n").filter((l) => l !== "").map((l) =>
        JSON.parse(l) as ArgvEntry
      );
      return tool === undefined ? entries : entries.filter((entry) => entry.tool === tool);
    },
    cleanup: () => removeWhenFree(dir),
  };
}

/**
 * Remove `dir`, trying again for a few seconds before failing the test on its
 * cleanup: on Windows a process that has just exited can hold a file in it a
 * moment longer ("Sharing violation", os error 32); anywhere, a process that
 * was killed as the test ended (a terminal closed on it) may still be writing
 * its last file there ("Directory not empty", os error 39 on Linux, 66 on macOS).
 */
function removeWhenFree(dir: string): void {
  for (let attempt = 0;; attempt++) {
    try {
      Deno.removeSync(dir, { recursive: true });
      return;
    } catch (error) {
      const text = String(error);
      const busy = Deno.build.os === "windows" && /os error (5|32)\b/.test(text);
      const stillWritten = /os error (39|66)\b/.test(text);
      if (!(busy || stillWritten) || attempt >= 50) throw error;
      sleepSync(100);
    }
  }
}

function writeScenario(file: string, scenario: object): void {
  Deno.writeTextFileSync(file, JSON.stringify(scenario));
  try {
    Deno.removeSync(`${file}.count`);
  } catch {
    // No run yet.
  }
}

/** What a fake printed and how it ended. */
export type FakeRun = ChildOutput;

/** Options for {@linkcode runFake}. */
export interface RunFakeOptions {
  /** Defaults to the world's project dir. */
  cwd?: string;
  /** Text piped to stdin (closed after); stdin is null otherwise. */
  stdin?: string;
}

/** Run a fake straight through its shim (not through claudecm's spawn code). */
export function startFake(
  world: FakeWorld,
  tool: "claude" | "cmv",
  args: string[],
  options: RunFakeOptions = {},
): { child: Deno.ChildProcess; done: Promise<FakeRun> } {
  const path = tool === "claude" ? world.claudePath : world.cmvPath;
  const windows = Deno.build.os === "windows";
  const child = new Deno.Command(windows ? "cmd.exe" : path, {
    // The fakes' tests keep to arguments that need no quoting for cmd.exe.
    args: windows ? ["/d", "/c", path, ...args] : args,
    cwd: options.cwd ?? world.project,
    env: world.env,
    clearEnv: true,
    stdin: options.stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const done = collectOutput(child, options.stdin);
  return { child, done };
}

/** Run a fake to completion. */
export function runFake(
  world: FakeWorld,
  tool: "claude" | "cmv",
  args: string[],
  options: RunFakeOptions = {},
): Promise<FakeRun> {
  return startFake(world, tool, args, options).done;
}

/** The transcripts (`*.jsonl`) under the world's projects dir, by project key. */
export function transcripts(world: FakeWorld): Record<string, string[]> {
  const result: Record<string, string[]> = {};
  try {
    for (const project of Deno.readDirSync(join(world.claudeRoot, "projects"))) {
      const files = [...Deno.readDirSync(join(world.claudeRoot, "projects", project.name))]
        .filter((entry) => entry.name.endsWith(".jsonl")).map((entry) => entry.name).sort();
      result[project.name] = files;
    }
  } catch {
    // No projects dir yet.
  }
  return result;
}

/** Parse a JSONL file. */
export function readLines(path: string): Record<string, unknown>[] {
  return Deno.readTextFileSync(path).split("\n").filter((l) => l.trim() !== "").map((l) =>
    JSON.parse(l)
  );
}

/** Resolve once `predicate` holds, polling; throws after `timeoutMs`. */
export async function waitUntil(predicate: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Every parentUuid names an earlier line's uuid (null only where a chain starts). */
export function assertChained(lines: Record<string, unknown>[]): void {
  const seen = new Set<unknown>();
  for (const line of lines) {
    if (typeof line.uuid !== "string") continue;
    if (line.parentUuid !== null) {
      assert.ok(seen.has(line.parentUuid), `dangling parentUuid in ${line.type}`);
    }
    seen.add(line.uuid);
  }
}

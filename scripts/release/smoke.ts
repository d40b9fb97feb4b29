/**
 * The release smoke test: a release binary, on the OS it was built for, run
 * as a user first would before anything is published (issue 31). In a fixture
 * home (fixture_home.ts):
 *
 * 1. `claudecm --version` prints the version;
 * 2. `claudecm list --json` lists the fixture's two sessions;
 * 3. `claudecm find --json WORD` finds the one whose transcript says WORD, by
 *    its list number;
 * 4. `claudecm new -- <hostile arguments>` starts the fake claude
 *    (fixtures/bin/claude, a `.cmd` shim on Windows) and every argument
 *    arrives intact; the new session is then in the list;
 * 5. with `--release-dir DIR`, the install script there (install.sh, or
 *    install.ps1 on Windows) installs this system's binary from DIR, served
 *    on 127.0.0.1 as the release would be, checked against DIR's SHA256SUMS,
 *    and the installed claudecm prints the version.
 *
 * Usage: deno run -A scripts/release/smoke.ts --bin PATH [--bin-arg ARG]...
 *          [--release-dir DIR]
 * The release workflow runs it on each runner of its matrix; tests/
 * release_smoke_test.ts runs it here against `deno run main.ts` (`--bin` the
 * deno, `--bin-arg` each of `run -A main.ts`).
 *
 * @module
 */

import { parseArgs } from "node:util";
import { fileURLToPath } from "node:url";
import { join, resolve } from "../../lib/core/path.ts";
import { VERSION } from "../../lib/version.ts";
import {
  createFixtureHome,
  FIND_WORD,
  FIXTURE_SESSIONS,
  type FixtureHome,
} from "./fixture_home.ts";
import { HOSTILE_ARGS } from "./hostile_args.ts";
import { runInstallScript } from "./install_check.ts";
import { type BinaryRun, runBinary, type RunBinaryOptions } from "./run_binary.ts";

/** claudecm with these arguments, as the smoke test starts it. */
type Claudecm = (args: string[], options: RunBinaryOptions) => Promise<BinaryRun>;

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const IS_WINDOWS = Deno.build.os === "windows";
const failures: string[] = [];

function check(what: string, ok: boolean, detail: unknown = ""): void {
  console.log(`${ok ? "ok  " : "FAIL"} ${what}`);
  if (!ok) {
    failures.push(what);
    console.log(`     ${typeof detail === "string" ? detail : JSON.stringify(detail)}`);
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

interface Listed {
  number: number;
  guid: string;
  desc: string;
  status: string;
}

async function checkVersion(claudecm: Claudecm, world: FixtureHome): Promise<void> {
  const run = await claudecm(["--version"], { env: world.env });
  const first = run.stdout.split(/\r?\n/)[0];
  check(`--version prints ${VERSION}`, run.code === 0 && first === VERSION, run);
}

async function listJson(claudecm: Claudecm, world: FixtureHome): Promise<Listed[] | undefined> {
  const run = await claudecm(["list", "--json"], { env: world.env, cwd: world.project });
  const json = parseJson(run.stdout) as { sessions?: Listed[] } | undefined;
  if (run.code !== 0 || !Array.isArray(json?.sessions)) {
    check("list --json prints the list", false, run);
    return undefined;
  }
  return json.sessions;
}

async function checkList(claudecm: Claudecm, world: FixtureHome): Promise<void> {
  const sessions = await listJson(claudecm, world);
  if (sessions === undefined) return;
  const got = sessions.map((s) => [s.number, s.guid, s.desc, s.status]);
  const want = FIXTURE_SESSIONS.map((s, i) => [i + 1, s.id, s.desc, "ok"]);
  check("list --json lists the fixture's sessions", JSON.stringify(got) === JSON.stringify(want), {
    got,
    want,
  });
}

async function checkFind(claudecm: Claudecm, world: FixtureHome): Promise<void> {
  const run = await claudecm(["find", "--json", FIND_WORD], {
    env: world.env,
    cwd: world.project,
  });
  const json = parseJson(run.stdout) as
    | { results?: Array<{ sessionId: string; registered: number | null }> }
    | undefined;
  const results = json?.results ?? [];
  check(
    `find --json ${FIND_WORD} finds #1 and only #1`,
    run.code === 0 && results.length === 1 && results[0].sessionId === FIXTURE_SESSIONS[0].id &&
      results[0].registered === 1,
    run,
  );
}

async function checkLaunch(claudecm: Claudecm, world: FixtureHome): Promise<void> {
  const argvLog = join(world.root, "argv.jsonl");
  const scenario = join(world.root, "claude-scenario.json");
  Deno.writeTextFileSync(scenario, JSON.stringify({ messages: ["smoke"] }));
  const claude = join(ROOT, "fixtures", "bin", IS_WINDOWS ? "claude.cmd" : "claude");
  const env = {
    ...world.env,
    CLAUDECM_CLAUDE: claude,
    CLAUDECM_CMV: join(world.root, "no-cmv-here"),
    FAKE_DENO: Deno.execPath(),
    FAKE_ARGV_LOG: argvLog,
    FAKE_CLAUDE_SCENARIO: scenario,
    // Root on a CI runner: claude takes the bypass flag in a sandbox, and nobody to re-run as.
    IS_SANDBOX: "1",
    CLAUDECM_RUN_AS: "claudecm-smoke-no-such-user",
  };
  const run = await claudecm(["new", "--", ...HOSTILE_ARGS], {
    env,
    cwd: world.project,
    stdin: "Smoke launch\n",
  });
  check("new -- <hostile arguments> exits 0", run.code === 0, run);
  let text = "";
  try {
    text = Deno.readTextFileSync(argvLog);
  } catch {
    // Nothing was started.
  }
  const launches = text.split("\n").filter((line) => line !== "")
    .map((line) => JSON.parse(line) as { argv: string[] })
    .filter((entry) => !["--version", "--help"].includes(entry.argv[0]));
  const launched = launches[0]?.argv ?? [];
  const tail = launched.slice(-HOSTILE_ARGS.length);
  check(
    `new started claude${IS_WINDOWS ? " through its .cmd shim" : ""}, every argument intact`,
    JSON.stringify(tail) === JSON.stringify(HOSTILE_ARGS),
    { got: launched, want: HOSTILE_ARGS },
  );
  const sessions = await listJson(claudecm, world) ?? [];
  check(
    "the launched session is saved, as #1",
    sessions.length === FIXTURE_SESSIONS.length + 1 && sessions[0].desc === "Smoke launch",
    sessions.map((s) => s.desc),
  );
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      bin: { type: "string" },
      "bin-arg": { type: "string", multiple: true },
      "release-dir": { type: "string" },
    },
  });
  if (values.bin === undefined) {
    console.error("usage: smoke.ts --bin PATH [--bin-arg ARG]... [--release-dir DIR]");
    Deno.exit(2);
  }
  const bin = resolve(values.bin);
  const leading = values["bin-arg"] ?? [];
  const claudecm: Claudecm = (args, options) => runBinary(bin, [...leading, ...args], options);
  console.log(
    `release smoke test of ${[bin, ...leading].join(" ")} on ${Deno.build.os} ${Deno.build.arch}`,
  );
  const world = createFixtureHome();
  try {
    await checkVersion(claudecm, world);
    await checkList(claudecm, world);
    await checkFind(claudecm, world);
    await checkLaunch(claudecm, world);
    if (values["release-dir"] !== undefined) {
      const installed = await runInstallScript(resolve(values["release-dir"]), world);
      check(
        "the install script installs this system's binary",
        installed.ok,
        installed.ok ? "" : installed.detail,
      );
      if (installed.ok) {
        const run = await runBinary(installed.path, ["--version"], { env: world.env });
        check(`the installed claudecm prints ${VERSION}`, run.stdout.startsWith(VERSION), run);
      }
    }
  } finally {
    world.cleanup();
  }
  console.log(
    failures.length === 0
      ? "release smoke: all checks passed"
      : `release smoke: ${failures.length} failed`,
  );
  Deno.exit(failures.length === 0 ? 0 : 1);
}

if (import.meta.main) await main();

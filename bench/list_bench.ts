/**
 * `claudecm list --json` over 1,000 registered sessions against
 * `claudecm --version`, the startup floor, both as real subprocesses run
 * alternately in one process. Prints medians and their ratio.
 * Target: list under 1.5x the floor. Run with `npm run bench`.
 *
 * @module
 */

import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { resolvePaths } from "../lib/core/paths.ts";
import { sessionId, writeRegistryText, writeTranscript } from "../tests/helpers/claude_home.ts";

const MAIN = fileURLToPath(new URL("../main.ts", import.meta.url));
const SESSIONS = 1_000;
const PROJECTS = 100;
const RUNS = 25;
const TARGET_RATIO = 1.5;

const home = Deno.makeTempDirSync({ prefix: "claudecm-bench-" });
const env: Record<string, string> = {
  HOME: home,
  USERPROFILE: home,
  CLAUDE_CONFIG_DIR: join(home, ".claude"),
  DENO_DIR: Deno.env.get("DENO_DIR") ?? join(tmpdir(), "claudecm-test-deno-dir"),
  PATH: Deno.env.get("PATH") ?? "",
  NO_COLOR: "1",
};

function seedRegistry(): void {
  const paths = resolvePaths((name) => env[name], Deno.build.os);
  const lines: string[] = [];
  for (let i = 0; i < SESSIONS; i++) {
    const dir = join(home, "projects", `project-${i % PROJECTS}`);
    Deno.mkdirSync(dir, { recursive: true });
    // Nine in ten transcripts exist; the rest take the missing-file fallback path.
    if (i % 10 !== 0) writeTranscript(paths, dir, sessionId(i + 1));
    lines.push(`${sessionId(i + 1)}|${dir}|Session number ${i}|${i * 1000}`);
  }
  writeRegistryText(paths, lines.join("\n") + "\n");
}

async function timeRun(args: string[]): Promise<number> {
  const started = performance.now();
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-all", "--quiet", MAIN, ...args],
    env,
    clearEnv: true,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const elapsed = performance.now() - started;
  if (output.code !== 0) throw new Error(new TextDecoder().decode(output.stderr));
  return elapsed;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

try {
  seedRegistry();
  const floor: number[] = [];
  const list: number[] = [];
  await timeRun(["list", "--json"]);
  for (let i = 0; i < RUNS; i++) {
    floor.push(await timeRun(["--version"]));
    list.push(await timeRun(["list", "--json"]));
  }
  const ratio = median(list) / median(floor);
  console.log(`claudecm --version (startup floor)    median ${median(floor).toFixed(1)} ms`);
  console.log(`claudecm list --json, ${SESSIONS} sessions  median ${median(list).toFixed(1)} ms`);
  console.log(
    `ratio ${ratio.toFixed(2)}x the floor (target < ${TARGET_RATIO}x): ` +
      (ratio < TARGET_RATIO ? "met" : "NOT MET"),
  );
} finally {
  Deno.removeSync(home, { recursive: true });
}

/**
 * Start a built claudecm binary the way a user first would, before its
 * release: `claudecm --version` must print the version, and
 * `claudecm doctor --json` (in an empty temporary HOME, so with no claude
 * found) must print its JSON report, exit 0 or 1, and write nothing.
 * CI and the release workflow run it (`CLAUDECM_BIN=dist/claudecm npm run
 * smoke`, or the path as the argument) before the whole suite runs against
 * the binary with the same CLAUDECM_BIN. A relative path is taken from the
 * repository root, as in tests/helpers/run_cli.ts.
 *
 * @module
 */

import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { VERSION } from "../lib/version.ts";

/** Run `bin ...args` with `env` only; returns exit code and output. */
async function run(
  bin: string,
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const output = await new Deno.Command(bin, { args, env, clearEnv: true }).output();
  const decoder = new TextDecoder();
  return {
    code: output.code,
    stdout: decoder.decode(output.stdout),
    stderr: decoder.decode(output.stderr),
  };
}

function exists(path: string): boolean {
  try {
    Deno.statSync(path);
    return true;
  } catch {
    return false;
  }
}

function fail(message: string): never {
  console.error(`smoke test failed: ${message}`);
  Deno.exit(1);
}

async function main(): Promise<void> {
  const given = Deno.args[0] ?? Deno.env.get("CLAUDECM_BIN");
  if (!given || Deno.args.length > 1) fail("usage: smoke_binary.ts PATH (or set CLAUDECM_BIN)");
  const bin = resolve(fileURLToPath(new URL("..", import.meta.url)), given);
  const home = Deno.makeTempDirSync({ prefix: "claudecm-smoke-" });
  try {
    const env: Record<string, string> = {
      HOME: home,
      USERPROFILE: home,
      CLAUDE_CONFIG_DIR: join(home, ".claude"),
      PATH: home,
      NO_COLOR: "1",
    };
    for (const name of ["SystemRoot", "TEMP", "TMP", "TMPDIR"]) {
      const value = Deno.env.get(name);
      if (value !== undefined) env[name] = value;
    }

    const version = await run(bin, ["--version"], env);
    console.log(`$ claudecm --version\n${version.stdout}${version.stderr}`);
    if (version.code !== 0 || version.stdout.trim() !== VERSION) {
      fail(`--version exited ${version.code} and printed ${JSON.stringify(version.stdout)}`);
    }

    const doctor = await run(bin, ["doctor", "--json"], env);
    console.log(
      `$ claudecm doctor --json  (exit ${doctor.code})\n${doctor.stdout}${doctor.stderr}`,
    );
    if (doctor.code !== 0 && doctor.code !== 1) fail(`doctor --json exited ${doctor.code}`);
    let report: { ok?: unknown; claude?: unknown };
    try {
      report = JSON.parse(doctor.stdout);
    } catch {
      fail("doctor --json did not print JSON");
    }
    if (typeof report.ok !== "boolean" || typeof report.claude !== "object") {
      fail("doctor --json printed JSON without ok and claude");
    }
    // Only claudecm's own folders: the runtime may keep a code cache under HOME.
    const written = [".claudecm", ".claude"].filter((name) => exists(join(home, name)));
    if (written.length > 0) fail(`doctor --json created ${written.join(" and ")} in HOME`);
    console.log(`smoke test passed: ${bin}`);
  } finally {
    Deno.removeSync(home, { recursive: true });
  }
}

if (import.meta.main) await main();

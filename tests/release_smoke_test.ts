/**
 * The release workflow's per-OS checks (scripts/release/smoke.ts and
 * startup.ts), run here against claudecm as the suite runs it (`deno run
 * main.ts`, or CLAUDECM_BIN's binary): GitHub's runners cannot be run here,
 * so what they will run is kept passing here, and fails here when claudecm
 * changes under it. A release folder is laid out as the workflow's build job
 * lays it out (this system's asset, SHA256SUMS, install.sh).
 */

import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { fileURLToPath } from "node:url";
import { join } from "../lib/core/path.ts";
import { TARGETS } from "../scripts/compile_all.ts";
import { childBaseEnv } from "./helpers/child.ts";
import { claudecmInvocation } from "./helpers/run_cli.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
// The stand-in release asset is a shell script, and install.ps1 needs a real PowerShell:
// Windows runs the install check on its own runner.
const IGNORE = Deno.build.os === "windows";

/** `program leading... "$@"` as an executable shell script at `path`, with the tests' Deno cache. */
function wrapper(path: string, program: string, leading: string[]): string {
  const quote = (word: string) => `'${word.replaceAll("'", "'\\''")}'`;
  const denoDir = childBaseEnv().DENO_DIR;
  Deno.writeTextFileSync(
    path,
    `#!/bin/sh\nDENO_DIR=${quote(denoDir)} exec ${
      [program, ...leading].map(quote).join(" ")
    } "$@"\n`,
  );
  Deno.chmodSync(path, 0o755);
  return path;
}

/** This system's release asset name, as install.sh picks it. */
function hostAsset(): string {
  const os = Deno.build.os === "darwin" ? "macos" : "linux";
  const arch = Deno.build.arch === "aarch64" ? "aarch64" : "x86_64";
  const asset = `claudecm-${os}-${arch}`;
  assert.ok(TARGETS.some((t) => t.asset === asset), asset);
  return asset;
}

async function runScript(
  script: string,
  args: string[],
): Promise<{ code: number; out: string }> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-all", "--quiet", join(ROOT, "scripts", "release", script), ...args],
    env: childBaseEnv(),
    clearEnv: true,
    stdin: "null",
  }).output();
  const decoder = new TextDecoder();
  return {
    code: output.code,
    out: decoder.decode(output.stdout) + decoder.decode(output.stderr),
  };
}

Deno.test("release smoke: version, list, find, and a launch with hostile arguments through the fake claude", async () => {
  const [program, leading] = claudecmInvocation(Deno.env.get("CLAUDECM_BIN"));
  const smoke = await runScript("smoke.ts", [
    "--bin",
    program,
    ...leading.map((arg) => `--bin-arg=${arg}`),
  ]);
  assert.equal(smoke.code, 0, smoke.out);
  for (
    const line of [
      "--version prints",
      "list --json lists the fixture's sessions",
      "find --json zebracorn finds #1",
      "every argument intact",
      "the launched session is saved",
    ]
  ) assert.match(smoke.out, new RegExp(`^ok {3}.*${line}`, "m"), smoke.out);
  if (Deno.build.os === "windows") assert.match(smoke.out, /through its \.cmd shim/);
});

Deno.test({
  name:
    "release smoke: the install script installs from the release folder, and refuses a tampered one",
  ignore: IGNORE,
  fn: async () => {
    const dir = Deno.makeTempDirSync({ prefix: "claudecm-release-test-" });
    try {
      const [program, leading] = claudecmInvocation(Deno.env.get("CLAUDECM_BIN"));
      const asset = hostAsset();
      const bin = wrapper(join(dir, asset), program, leading);
      Deno.copyFileSync(join(ROOT, "install.sh"), join(dir, "install.sh"));
      const sum = createHash("sha256").update(Deno.readFileSync(bin)).digest("hex");
      Deno.writeTextFileSync(join(dir, "SHA256SUMS"), `${sum}  ${asset}\n`);
      const smoke = await runScript("smoke.ts", ["--bin", bin, "--release-dir", dir]);
      assert.equal(smoke.code, 0, smoke.out);
      assert.match(smoke.out, /^ok {3}the install script installs this system's binary/m);
      assert.match(smoke.out, /^ok {3}the installed claudecm prints/m);

      // A tampered asset: the install refuses it, and the smoke test says so.
      Deno.writeTextFileSync(join(dir, "SHA256SUMS"), `${"0".repeat(64)}  ${asset}\n`);
      const tampered = await runScript("smoke.ts", ["--bin", bin, "--release-dir", dir]);
      assert.equal(tampered.code, 1, tampered.out);
      assert.match(tampered.out, /^FAIL the install script installs/m);
      assert.match(tampered.out, /checksum mismatch/);
    } finally {
      Deno.removeSync(dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "release start-up timing: --version, --help and list --json against the floor, as JSON",
  ignore: IGNORE,
  fn: async () => {
    const dir = Deno.makeTempDirSync({ prefix: "claudecm-startup-test-" });
    try {
      const [program, leading] = claudecmInvocation(Deno.env.get("CLAUDECM_BIN"));
      const bin = wrapper(join(dir, "claudecm"), program, leading);
      const floor = wrapper(join(dir, "floor"), Deno.execPath(), [
        "run",
        "--quiet",
        join(ROOT, "bench", "floor.ts"),
      ]);
      const out = join(dir, "startup.json");
      const run = await runScript("startup.ts", [
        "--bin",
        bin,
        "--floor",
        floor,
        "--runs",
        "1",
        "--out",
        out,
        "--label",
        "test",
      ]);
      assert.equal(run.code, 0, run.out);
      const report = JSON.parse(Deno.readTextFileSync(out));
      assert.equal(report.label, "test");
      assert.deepEqual(
        report.cases.map((c: { args: string[] }) => c.args),
        [[], ["--version"], ["--help"], ["list", "--json"]],
      );
      for (const c of report.cases) assert.ok(c.fastestMs > 0 && c.fastestRatio > 0, run.out);
      assert.match(run.out, /claudecm list --json/);
    } finally {
      Deno.removeSync(dir, { recursive: true });
    }
  },
});

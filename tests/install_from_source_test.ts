// Issue 18 item 18: running from source through `npm run claudecm -- new` registered the checkout
// as the project and put npm's banner on stdout. scripts/install_from_source.ts puts a launcher
// in ~/.local/bin that runs the checkout's Deno on main.ts in the user's own folder.
import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import packageJson from "../package.json" with { type: "json" };
import { LAUNCHER_MARK, launcherText } from "../scripts/install_from_source.ts";
import { type ChildOutput, collectOutput } from "./helpers/child.ts";
import { createLaunchWorld } from "./helpers/launch_world.ts";

const SCRIPT = fileURLToPath(new URL("../scripts/install_from_source.ts", import.meta.url));
const IS_WINDOWS = Deno.build.os === "windows";
const LAUNCHER = IS_WINDOWS ? "claudecm.cmd" : "claudecm";

function run(
  program: string,
  args: string[],
  options: { env: Record<string, string>; cwd: string; stdin?: string },
): Promise<ChildOutput> {
  const [command, leading] = IS_WINDOWS && program.endsWith(".cmd")
    ? ["cmd.exe", ["/d", "/c", program]]
    : [program, []];
  const child = new Deno.Command(command, {
    args: [...leading, ...args],
    env: options.env,
    clearEnv: true,
    cwd: options.cwd,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  return collectOutput(child, options.stdin ?? "");
}

Deno.test("install from source: the launcher runs claudecm in the user's folder, no banner; uninstall removes it", async () => {
  const world = createLaunchWorld();
  try {
    const bin = join(world.home, ".local", "bin");
    const env = world.env;
    const installed = await run(Deno.execPath(), ["run", "-A", SCRIPT], { env, cwd: world.dir });
    assert.equal(installed.code, 0, installed.stderr);
    const launcher = join(bin, LAUNCHER);
    assert.match(installed.stdout, new RegExp(`Installed .*${LAUNCHER}`));
    assert.match(installed.stdout, /\nTab completion: .*claudecm completions /);
    assert.ok(Deno.readTextFileSync(launcher).includes(LAUNCHER_MARK));

    world.claudeScenario({ messages: ["hello"] });
    // The user's folder may be a Deno or npm project of its own: the checkout's config still rules.
    Deno.writeTextFileSync(
      join(world.project, "deno.json"),
      '{ "imports": { "jsonc-parser": "npm:nothing@0.0.0" } }',
    );
    // A settings.json to protect: the edit loads jsonc-parser from the checkout's node_modules.
    Deno.mkdirSync(world.claudeRoot, { recursive: true });
    Deno.writeTextFileSync(
      join(world.claudeRoot, "settings.json"),
      '{ "cleanupPeriodDays": 30 }\n',
    );
    const started = await run(launcher, ["new"], { env, cwd: world.project, stdin: "Daily\n" });
    assert.equal(started.code, 0, started.stderr);
    assert.match(Deno.readTextFileSync(join(world.claudeRoot, "settings.json")), /100000/);
    assert.deepEqual(
      world.sessions().map((s) => [s.dir, s.desc]),
      [[world.project, "Daily"]],
      "the folder it ran in is the project, not the checkout",
    );
    const listed = await run(launcher, ["list", "--json"], { env, cwd: world.project });
    assert.equal(listed.code, 0, listed.stderr);
    assert.equal(JSON.parse(listed.stdout).sessions[0].dir, world.project, "stdout is JSON only");
    const version = await run(launcher, ["--version"], { env, cwd: world.project });
    assert.equal(version.stdout.split("\n")[0], packageJson.version);

    // A second install replaces its own launcher; uninstall removes it.
    assert.equal(
      (await run(Deno.execPath(), ["run", "-A", SCRIPT], { env, cwd: world.dir })).code,
      0,
    );
    const removed = await run(Deno.execPath(), ["run", "-A", SCRIPT, "--uninstall"], {
      env,
      cwd: world.dir,
    });
    assert.equal(removed.code, 0, removed.stderr);
    assert.throws(() => Deno.statSync(launcher), Deno.errors.NotFound);
  } finally {
    world.cleanup();
  }
});

Deno.test("install from source never replaces or removes a claudecm that is not its launcher", async () => {
  const world = createLaunchWorld();
  try {
    const bin = join(world.dir, "custom bin");
    Deno.mkdirSync(bin);
    const release = join(bin, LAUNCHER);
    Deno.writeTextFileSync(release, "a release binary");
    for (const args of [["--dir", bin], ["--dir", bin, "--uninstall"]]) {
      const result = await run(Deno.execPath(), ["run", "-A", SCRIPT, ...args], {
        env: world.env,
        cwd: world.dir,
      });
      assert.equal(result.code, 1, args.join(" "));
      assert.match(result.stderr, /is not a source launcher \(a release binary\?\)/);
      assert.equal(Deno.readTextFileSync(release), "a release binary");
    }
  } finally {
    world.cleanup();
  }
});

Deno.test("the launcher text quotes the checkout for its shell", () => {
  const posix = launcherText("/src/it's here", "/src/it's here/node_modules/deno/deno", "linux");
  assert.match(posix, /^#!\/bin\/sh\n/);
  assert.ok(posix.includes(`'/src/it'\\''s here/main.ts' "$@"\n`), posix);
  const windows = launcherText("C:\\src\\my app", "C:\\src\\my app\\deno.exe", "windows");
  assert.ok(windows.startsWith("@echo off\r\n"));
  assert.ok(windows.includes(`"C:\\src\\my app\\deno.exe" "run" "--allow-all"`), windows);
  assert.ok(windows.endsWith(" %*\r\n"));
});

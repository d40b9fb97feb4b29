// Issue 18 item 7: every launch bypassed claude's permission prompts, and nothing could turn
// that off. The default stays; `"permissions": "ask"` in config.json or CLAUDECM_PERMISSIONS=ask
// turns it off, and doctor shows the choice.
import assert from "node:assert/strict";
import { createLaunchWorld, type LaunchWorld } from "./helpers/launch_world.ts";
import { runClaudecm } from "./helpers/run_cli.ts";
import { join } from "../lib/core/path.ts";

const BYPASS = "--dangerously-skip-permissions";

function writeConfig(world: LaunchWorld, text: string): string {
  const file = join(world.paths.cmHome, "config.json");
  Deno.writeTextFileSync(file, text);
  return file;
}

/** Launch `claudecm new` (Enter at the name) with `env` added; the launch's argv. */
async function launchArgs(world: LaunchWorld, env: Record<string, string> = {}) {
  world.claudeScenario({ messages: ["hello"] });
  const before = world.launches().length;
  const result = await runClaudecm(["new"], {
    env: { ...world.env, ...env },
    cwd: world.project,
    // The name's Enter; from the second run on: Rename (Enter), Resume? n, the name's Enter.
    stdin: before === 0 ? "\n" : "\nn\n\n",
  });
  return { result, argv: world.launches()[before]?.argv };
}

Deno.test("permissions: bypass by default; ask from config.json, the environment winning over it", async () => {
  const world = createLaunchWorld();
  try {
    assert.ok((await launchArgs(world)).argv!.includes(BYPASS), "the default, as the old scripts");
    writeConfig(world, '{ "permissions": "ask" }\n');
    const asked = await launchArgs(world);
    assert.equal(asked.result.code, 0, asked.result.stderr);
    assert.ok(!asked.argv!.includes(BYPASS), asked.argv!.join(" "));
    assert.ok((await launchArgs(world, { CLAUDECM_PERMISSIONS: "bypass" })).argv!.includes(BYPASS));
    writeConfig(world, '{ "permissions": "bypass" }\n');
    assert.ok(!(await launchArgs(world, { CLAUDECM_PERMISSIONS: "ASK" })).argv!.includes(BYPASS));
  } finally {
    world.cleanup();
  }
});

Deno.test("permissions: a value claudecm does not know starts no claude (never a silent bypass)", async () => {
  const world = createLaunchWorld();
  try {
    const file = writeConfig(world, '{ "permissions": "ak" }');
    const bad = await launchArgs(world);
    assert.equal(bad.result.code, 1);
    assert.equal(
      bad.result.stderr,
      `claudecm: ${file}: "permissions" is "ak"; expected "ask" or "bypass"\n`,
    );
    assert.equal(bad.argv, undefined, "claude never started");
    writeConfig(world, "{ permissions: ask");
    assert.match((await launchArgs(world)).result.stderr, /config\.json is not valid JSON/);
    // Not an object, or the key spelt another way: not a choice to fall back to bypass from.
    const spelt = ['{"Permissions": "ask"}', '{"permission": "ask"}', '{"permissions ": "ask"}'];
    for (const text of ['"ask"', "[]", "null", ...spelt]) {
      writeConfig(world, text);
      const refused = await launchArgs(world);
      assert.equal(refused.result.code, 1, text);
      assert.match(refused.result.stderr, /config\.json/, text);
      assert.equal(refused.argv, undefined, `${text}: claude never started`);
    }
    // A byte order mark is read past, as in settings.json.
    writeConfig(world, '\ufeff{"permissions": "ask"}');
    assert.ok(!(await launchArgs(world)).argv?.includes(BYPASS));
    Deno.removeSync(file);
    const env = await launchArgs(world, { CLAUDECM_PERMISSIONS: "never" });
    assert.equal(env.result.code, 1);
    assert.equal(
      env.result.stderr,
      'claudecm: CLAUDECM_PERMISSIONS=never: expected "ask" or "bypass"\n',
    );
  } finally {
    world.cleanup();
  }
});

Deno.test("doctor shows the permissions choice and where it comes from (text and --json)", async () => {
  const world = createLaunchWorld();
  try {
    const doctor = async (env: Record<string, string> = {}) => {
      const run = (args: string[]) =>
        runClaudecm(["doctor", ...args], { env: { ...world.env, ...env }, cwd: world.project });
      return { text: (await run([])).stdout, json: JSON.parse((await run(["--json"])).stdout) };
    };
    const byDefault = await doctor();
    assert.match(
      byDefault.text,
      /\n {2}permissions +ok +bypass \(the default\): claude gets --dangerously-skip-permissions/,
    );
    assert.match(
      byDefault.text,
      /"permissions": "ask" in .*config\.json or CLAUDECM_PERMISSIONS=ask turns that off/,
    );
    assert.deepEqual(
      [byDefault.json.permissions.choice, byDefault.json.permissions.source],
      ["bypass", "default"],
    );
    const file = writeConfig(world, '{"permissions": "ask"}');
    const fromConfig = await doctor();
    assert.match(fromConfig.text, /permissions +ok +ask \(set in .*config\.json\): claude asks/);
    assert.deepEqual(
      [fromConfig.json.permissions.choice, fromConfig.json.permissions.source],
      ["ask", "config"],
    );
    assert.ok(!fromConfig.json.runAs.permissionArgs.includes(BYPASS));
    const fromEnv = await doctor({ CLAUDECM_PERMISSIONS: "bypass" });
    assert.deepEqual(
      [fromEnv.json.permissions.choice, fromEnv.json.permissions.source],
      ["bypass", "environment"],
    );
    // CLAUDECM_PERMISSION_MODE wins at every launch: doctor says so, not "bypass".
    const plan = await doctor({ CLAUDECM_PERMISSION_MODE: "plan" });
    assert.match(
      plan.text,
      /permissions +ok +mode plan \(set by CLAUDECM_PERMISSION_MODE\): claude gets --permission-mode plan/,
    );
    assert.doesNotMatch(plan.text, /bypass \(/);
    assert.equal(plan.json.permissions.mode, "plan");
    assert.deepEqual(plan.json.runAs.permissionArgs, ["--permission-mode", "plan"]);
    const bogus = await doctor({ CLAUDECM_PERMISSION_MODE: "bogusmode" });
    assert.ok(
      bogus.json.warnings.some((w: string) => /bogusmode is not a mode claude knows/.test(w)),
    );
    writeConfig(world, '{"permissions": 1}');
    const broken = await doctor();
    assert.equal(broken.json.permissions.status, "problem");
    assert.equal(broken.json.permissions.choice, null);
    assert.ok(broken.json.problems.some((p: string) => p.startsWith(`permissions: ${file}`)));
  } finally {
    world.cleanup();
  }
});

Deno.test("permissions: a key set twice in config.json starts no claude, naming the line (issue 30 item 14)", async () => {
  const world = createLaunchWorld();
  try {
    // JSON.parse would take the last one: bypass, which the first line turned off.
    const file = writeConfig(world, '{\n  "permissions": "ask",\n  "permissions": "bypass"\n}\n');
    const twice = await launchArgs(world);
    assert.equal(twice.result.code, 1);
    assert.equal(
      twice.result.stderr,
      `claudecm: ${file} line 3: "permissions" is set again (first on line 2); keep one\n`,
    );
    assert.equal(twice.argv, undefined, "claude never started");
    const doctor = await runClaudecm(["doctor"], { env: world.env, cwd: world.project });
    assert.match(doctor.stdout, /line 3: "permissions" is set again \(first on line 2\)/);
    // Any key twice in the file (the same name in a nested object is another key).
    writeConfig(world, '{"permissions": "ask", "x": {"permissions": 1}, "x": 2}');
    assert.match((await launchArgs(world)).result.stderr, /line 1: "x" is set again/);
    writeConfig(world, '{"permissions": "ask", "x": {"permissions": 1, "a": ["permissions"]}}');
    const nested = await launchArgs(world);
    assert.equal(nested.result.code, 0, nested.result.stderr);
    assert.ok(!nested.argv!.includes(BYPASS));
  } finally {
    world.cleanup();
  }
});

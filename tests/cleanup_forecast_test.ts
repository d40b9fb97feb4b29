// doctor's clean-up forecast against Claude Code's settings layers (issue 20.4, 18.5):
// user 30, a project's .claude/settings.json 5, a local file that does not set it, a
// managed layer over all; transcripts with old modification times, registered or not.
import assert from "node:assert/strict";
import { join } from "node:path";
import { runClaudecm } from "./helpers/run_cli.ts";
import { sessionId, writeRegistryText, writeTranscript } from "./helpers/claude_home.ts";
import { createFakeWorld } from "./helpers/fakes.ts";
import { resolvePaths } from "../lib/core/paths.ts";

const DAY = 24 * 60 * 60 * 1000;
const OLD_A = sessionId(0xa1);
const FRESH_B = sessionId(0xb1);
const STRAY = sessionId(0xc1);

function setUp() {
  const world = createFakeWorld();
  const paths = resolvePaths((name) => world.env[name], Deno.build.os);
  const a = join(world.dir, "alpha");
  const b = join(world.dir, "beta");
  for (const dir of [a, b]) Deno.mkdirSync(join(dir, ".claude"), { recursive: true });
  Deno.mkdirSync(paths.claudeRoot, { recursive: true });
  Deno.writeTextFileSync(paths.settingsFile, '{"cleanupPeriodDays": 30}');
  Deno.writeTextFileSync(join(a, ".claude", "settings.json"), '{"cleanupPeriodDays": 5}');
  Deno.writeTextFileSync(join(b, ".claude", "settings.local.json"), '{"model": "opus"}');
  const age = (file: string, days: number) => {
    const when = new Date(Date.now() - days * DAY);
    Deno.utimeSync(file, when, when);
  };
  age(writeTranscript(paths, a, OLD_A), 3);
  writeTranscript(paths, b, FRESH_B);
  age(writeTranscript(paths, b, STRAY), 25);
  const managed = join(world.dir, "managed");
  Deno.mkdirSync(managed);
  world.env.CLAUDECM_MANAGED_SETTINGS_DIR = managed;
  return { world, paths, a, b, managed };
}

async function forecastOf(env: Record<string, string>, cwd: string) {
  const result = await runClaudecm(["doctor", "--json"], { env, cwd });
  return JSON.parse(result.stdout).forecast;
}

Deno.test("forecast: a project layer of 5 days puts every project's transcripts at risk", async () => {
  const { world, paths, a, b } = setUp();
  try {
    writeRegistryText(paths, `${OLD_A}|${a}|Alpha|\n${FRESH_B}|${b}|Beta|\n`);
    const forecast = await forecastOf(world.env, world.project);
    assert.deepEqual(
      forecast.folders.map((f: Record<string, unknown>) => [f.dir, f.cleanupPeriodDays, f.source]),
      [[a, 5, "project"], [b, 30, "user"]],
    );
    assert.deepEqual(
      forecast.expiring.map((e: Record<string, unknown>) => [e.sessionId, e.registered]),
      [[STRAY, false], [OLD_A, true], [FRESH_B, true]],
    );
    const oldA = forecast.expiring.find((e: { sessionId: string }) => e.sessionId === OLD_A);
    const expected = Deno.statSync(oldA.transcript).mtime!.getTime() + 5 * DAY;
    assert.equal(Date.parse(oldA.expiresAt), expected);
    assert.equal(oldA.dir, a);

    const plain = await runClaudecm(["doctor"], { env: world.env, cwd: world.project });
    assert.match(plain.stdout, /lowers cleanupPeriodDays to 5/);
    assert.match(
      plain.stdout,
      /3 session\(s\) expire by \w+ \d+ \w+ .*raise cleanupPeriodDays in .*alpha[\\/]\.claude[\\/]settings\.json/,
    );
    assert.match(plain.stdout, /expires \w+ \d+ \w+: Alpha \(not in the vault yet/);
    assert.match(plain.stdout, new RegExp(`expires \\w+ \\d+ \\w+: ${STRAY} \\(not registered`));
  } finally {
    world.cleanup();
  }
});

Deno.test("forecast: with only the user layer (30) in play, only a 25-day-old transcript expires", async () => {
  const { world, paths, b } = setUp();
  try {
    writeRegistryText(paths, `${FRESH_B}|${b}|Beta|\n`);
    const forecast = await forecastOf(world.env, world.project);
    assert.deepEqual(forecast.folders.map((f: { source: string }) => f.source), ["user"]);
    assert.deepEqual(forecast.expiring.map((e: { sessionId: string }) => e.sessionId), [STRAY]);
  } finally {
    world.cleanup();
  }
});

Deno.test("forecast: managed settings win over every other layer, drop-ins after the file", async () => {
  const { world, paths, a, managed } = setUp();
  try {
    writeRegistryText(paths, `${OLD_A}|${a}|Alpha|\n`);
    Deno.writeTextFileSync(join(managed, "managed-settings.json"), '{"cleanupPeriodDays": 90}');
    Deno.mkdirSync(join(managed, "managed-settings.d"));
    Deno.writeTextFileSync(
      join(managed, "managed-settings.d", "10-retention.json"),
      '{"cleanupPeriodDays": 60}',
    );
    const forecast = await forecastOf(world.env, world.project);
    assert.deepEqual(
      forecast.folders.map((f: Record<string, unknown>) => [f.cleanupPeriodDays, f.source]),
      [[60, "managed"]],
    );
    assert.deepEqual(forecast.expiring, []);
    // Over a protected user setting, managed settings that lower the period are said, not hidden.
    Deno.writeTextFileSync(paths.settingsFile, '{"cleanupPeriodDays": 100000}');
    const doctor = await runClaudecm(["doctor"], { env: world.env, cwd: world.project });
    assert.match(
      doctor.stdout,
      /managed-settings\.d.10-retention\.json \(managed settings\) sets cleanupPeriodDays to 60/,
    );
  } finally {
    world.cleanup();
  }
});

Deno.test({
  name: "forecast: a project's settings file that is a link to a pipe or a device is not read",
  ignore: Deno.build.os === "windows",
  fn: async () => {
    const { world, paths, a, b } = setUp();
    try {
      writeRegistryText(paths, `${OLD_A}|${a}|Alpha|\n${FRESH_B}|${b}|Beta|\n`);
      // A cloned repository can carry such links: a FIFO read never answers, /dev/zero never ends.
      const fifo = join(world.dir, "pipe");
      assert.ok(new Deno.Command("mkfifo", { args: [fifo] }).outputSync().success);
      Deno.removeSync(join(a, ".claude", "settings.json"));
      Deno.symlinkSync(fifo, join(a, ".claude", "settings.json"));
      Deno.symlinkSync("/dev/zero", join(b, ".claude", "settings.json"));
      const forecast = await forecastOf(world.env, world.project);
      assert.deepEqual(
        forecast.folders.map((f: Record<string, unknown>) => [f.dir, f.cleanupPeriodDays]),
        [[a, 30], [b, 30]],
      );
    } finally {
      world.cleanup();
    }
  },
});

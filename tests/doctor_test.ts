import assert from "node:assert/strict";
import { collectDoctorReport, type DoctorReport, runDoctor } from "../lib/app/doctor/doctor.ts";
import type { RunAsFacts } from "../lib/platform/run_as.ts";
import { sessionId, writeRegistryText, writeTranscript } from "./helpers/claude_home.ts";
import { createFakeWorld, type FakeWorld } from "./helpers/fakes.ts";
import { createTestContext, type TestContext } from "./helpers/test_context.ts";
import { treeState } from "./helpers/tree_state.ts";
import { escapeRegExp } from "./helpers/portable.ts";
import { projectKey } from "../lib/core/project_key.ts";
import { join } from "../lib/core/path.ts";

const ALL_FEATURES = { sessionId: true, name: true, forkSession: true, noSessionPersistence: true };

/** A healthy world: the fakes, protected settings, one registered session with its transcript. */
interface Healthy {
  world: FakeWorld;
  t: TestContext;
  guid: string;
  cleanup(): void;
}

function healthy(env: Record<string, string> = {}): Healthy {
  const world = createFakeWorld();
  const t = createTestContext({ env: { ...world.env, ...env }, cwd: world.project });
  const guid = sessionId(1);
  writeTranscript(t.ctx.paths, world.project, guid);
  writeRegistryText(t.ctx.paths, `${guid}|${world.project}|My App|155000\n`);
  Deno.writeTextFileSync(t.ctx.paths.settingsFile, '{\n  "cleanupPeriodDays": 100000\n}\n');
  Deno.writeTextFileSync(t.ctx.paths.machineNameFile, "laptop\n");
  return {
    world,
    t,
    guid,
    cleanup() {
      t.cleanup();
      world.cleanup();
    },
  };
}

async function withHealthy(
  check: (h: Healthy) => Promise<void> | void,
  env: Record<string, string> = {},
): Promise<void> {
  const h = healthy(env);
  try {
    await check(h);
  } finally {
    h.cleanup();
  }
}

function rootFacts(t: TestContext, overrides: Partial<RunAsFacts>): RunAsFacts {
  return {
    os: "linux",
    uid: 0,
    env: t.ctx.env,
    user: null,
    sudo: null,
    runuser: null,
    self: ["claudecm"],
    ...overrides,
  };
}

function sections(report: DoctorReport): Record<string, string> {
  const { claude, cmv, settings, registry, runAs } = report;
  return {
    claude: claude.status,
    cmv: cmv.status,
    settings: settings.status,
    registry: registry.status,
    runAs: runAs.status,
  };
}

const ALL_OK = { claude: "ok", cmv: "ok", settings: "ok", registry: "ok", runAs: "ok" };

Deno.test("doctor: all ok exits 0, reports the tools, settings, registry and paths", async () => {
  await withHealthy(async ({ world, t }) => {
    const code = await runDoctor(t.ctx, { json: false });
    assert.equal(code, 0, t.stdout());
    const report = await collectDoctorReport(t.ctx);
    assert.deepEqual(sections(report), ALL_OK);
    assert.deepEqual([report.ok, report.problems, report.warnings], [true, [], []]);
    assert.deepEqual(report.claude, {
      status: "ok",
      found: true,
      path: world.claudePath,
      source: "override",
      version: "2.1.332 (Claude Code)",
      features: ALL_FEATURES,
      error: null,
    });
    assert.deepEqual(report.cmv, {
      status: "ok",
      found: true,
      path: world.cmvPath,
      source: "override",
      version: "2.1.1",
      error: null,
    });
    assert.equal(report.settings.cleanupPeriodDays, 100000);
    assert.equal(report.settings.protected, true);
    assert.deepEqual([report.registry.sessions, report.registry.archived], [1, 0]);
    assert.equal(report.machineName, "laptop");
    assert.equal(report.paths.quarantineRoot, t.ctx.paths.quarantineRoot);
    assert.equal(report.paths.vaultDir, t.ctx.paths.vaultDir);
    assert.notEqual(report.paths.backupDir, report.paths.quarantineRoot);
    const out = t.stdout();
    for (const label of ["claude", "cmv", "settings", "registry", "transcripts", "folders"]) {
      assert.match(out, new RegExp(`^  ${label} +ok `, "m"), label);
    }
    assert.match(out, /^ {2}machine name +ok +laptop$/m);
    assert.match(out, /supports: --session-id, -n\/--name, --fork-session/);
    assert.match(out, new RegExp(`quarantine +${escapeRegExp(t.ctx.paths.quarantineRoot)}`));
    assert.match(out, new RegExp(`vault +${escapeRegExp(t.ctx.paths.vaultDir)}`));
    assert.match(out, /All checks ok\.\n$/);
    // Only probes: doctor never launches claude or runs a cmv command on a session.
    const probes = world.argv().map((entry) => [entry.tool, ...entry.argv].join(" "));
    assert.ok(probes.every((p) => /^(claude --version|claude --help|cmv --version)$/.test(p)));
  });
});

Deno.test("doctor: CLAUDECM_CLAUDE naming a missing file is a problem, reported, not thrown", async () => {
  await withHealthy(async ({ t }) => {
    const report = await collectDoctorReport(t.ctx);
    assert.equal(report.claude.status, "problem");
    assert.equal(report.claude.found, false);
    assert.match(report.claude.error!, /CLAUDECM_CLAUDE is set to \/nowhere\/claude/);
    assert.deepEqual(report.problems, [`claude: ${report.claude.error}`]);
    assert.equal(await runDoctor(t.ctx, { json: false }), 1);
    assert.match(t.stdout(), /^ {2}claude +problem +not found$/m);
    assert.match(t.stdout(), /1 problem\(s\), 0 warning\(s\)\./);
  }, { CLAUDECM_CLAUDE: "/nowhere/claude" });
});

Deno.test("doctor: no claude on PATH or at its default place says how to install it", async () => {
  await withHealthy(async ({ t }) => {
    const report = await collectDoctorReport(t.ctx);
    assert.equal(report.claude.status, "problem");
    assert.match(report.claude.error!, /not found on PATH or at .*\.local/);
    assert.match(report.claude.error!, /npm install -g @anthropic-ai\/claude-code$/);
    assert.equal(report.cmv.status, "ok", "cmv is still found through its override");
  }, { CLAUDECM_CLAUDE: "", PATH: "" });
});

Deno.test("doctor: a claude whose --version fails is a problem and is not asked for its help", async () => {
  await withHealthy(async ({ world, t }) => {
    world.claudeScenario({ failVersion: true });
    const report = await collectDoctorReport(t.ctx);
    assert.equal(report.claude.status, "problem");
    assert.deepEqual([report.claude.found, report.claude.version], [true, null]);
    assert.equal(report.claude.features, null);
    assert.match(report.claude.error!, /--version` failed, so this claude looks broken/);
    assert.deepEqual(world.argv("claude").map((e) => e.argv), [["--version"]]);
  });
});

Deno.test("doctor: an older claude without --session-id or -n is a warning, exit 0", async () => {
  await withHealthy(async ({ world, t }) => {
    world.claudeScenario({ version: "2.0.50", helpWithout: ["--session-id", "--name"] });
    const report = await collectDoctorReport(t.ctx);
    assert.equal(report.claude.status, "warning");
    assert.deepEqual(report.claude.features, { ...ALL_FEATURES, sessionId: false, name: false });
    assert.equal(report.warnings.length, 2);
    assert.match(report.warnings[0], /^claude: this claude has no --session-id/);
    assert.equal(await runDoctor(t.ctx, { json: false }), 0);
    assert.match(t.stdout(), /lacks: --session-id, -n\/--name/);
  });
});

Deno.test("doctor: cmv missing is a warning with the install notice, exit 0", async () => {
  await withHealthy(async ({ t }) => {
    const report = await collectDoctorReport(t.ctx);
    assert.deepEqual(sections(report), { ...ALL_OK, cmv: "warning" });
    assert.match(report.cmv.error!, /CLAUDECM_CMV is set to .*skipping snapshots/);
    assert.match(report.cmv.error!, /github\.com\/CosmoNaught\/claude-code-cmv/);
    assert.equal(await runDoctor(t.ctx, { json: false }), 0);
    assert.match(t.stdout(), /^ {2}cmv +warning +not found$/m);
    assert.match(t.stdout(), /No problems; 1 warning\(s\)\./);
  }, { CLAUDECM_CMV: "/nowhere/cmv" });
});

Deno.test("doctor: settings missing, commented, broken, unset or low are problems; file untouched", async () => {
  const cases: Array<[string | null, RegExp]> = [
    [null, /settings\.json does not exist.*create it containing \{"cleanupPeriodDays": 100000\}/],
    ['{\n  // mine\n  "cleanupPeriodDays": 100000\n}', /comments or trailing commas.*skipped by/],
    ["{ broken", /is not valid JSON.*skipped by Claude Code too/],
    ['{"model": "opus"}', /cleanupPeriodDays is not set.*run claudecm once to protect/],
    ['{"cleanupPeriodDays": 30}', /cleanupPeriodDays is 30.*after 30 days: run claudecm once/],
    ['{"cleanupPeriodDays": 0}', /cleanupPeriodDays is 0, not a positive whole number/],
  ];
  for (const [text, message] of cases) {
    await withHealthy(async ({ t }) => {
      if (text === null) Deno.removeSync(t.ctx.paths.settingsFile);
      else Deno.writeTextFileSync(t.ctx.paths.settingsFile, text);
      const report = await collectDoctorReport(t.ctx);
      assert.deepEqual(sections(report), { ...ALL_OK, settings: "problem" }, String(text));
      assert.equal(report.problems.length, 1);
      assert.match(report.problems[0], message);
      assert.equal(report.settings.exists, text !== null);
      assert.equal(report.settings.protected, false);
      if (text !== null) assert.equal(Deno.readTextFileSync(t.ctx.paths.settingsFile), text);
      else assert.throws(() => Deno.statSync(t.ctx.paths.settingsFile));
    });
  }
});

Deno.test("doctor: registry lines that do not parse are a problem, with line number, text and reason", async () => {
  await withHealthy(async ({ world, t, guid }) => {
    writeRegistryText(
      t.ctx.paths,
      `${guid}|${world.project}|My App|\nnot a session line\n[archived]\nxyz|/a|b|\n`,
    );
    const report = await collectDoctorReport(t.ctx);
    assert.deepEqual(sections(report), { ...ALL_OK, registry: "problem" });
    assert.deepEqual(report.registry.malformedLines, [
      {
        lineNumber: 2,
        text: "not a session line",
        reason: "expected GUID|DIR|DESC|TOKENS, found 1 field(s)",
        sessionId: null,
        vaulted: null,
      },
      {
        lineNumber: 4,
        text: "xyz|/a|b|",
        reason: "'xyz' is not a session id",
        sessionId: null,
        vaulted: null,
      },
    ]);
    assert.match(
      report.problems[0],
      /^registry: 2 lines of .*sessions\.txt cannot be parsed: edit the file/,
    );
    assert.equal(await runDoctor(t.ctx, { json: false }), 1);
    assert.match(t.stdout(), /^ {2}registry +problem +1 session\(s\), 0 archived/m);
    assert.match(t.stdout(), /^ +line 2: not a session line {2}\(expected GUID/m);
    assert.match(t.stdout(), /^ +line 4: xyz\|\/a\|b\| {2}\('xyz' is not a session id\)$/m);
  });
});

Deno.test("doctor: registered sessions without a transcript, and folders that are gone, are warnings", async () => {
  await withHealthy(async ({ world, t, guid }) => {
    const [gone, running, old] = [2, 3, 4].map(sessionId);
    const vanished = join(world.dir, "vanished");
    writeRegistryText(
      t.ctx.paths,
      `${guid}|${world.project}|My App|\n${gone}|${world.project}|Gone one|\n` +
        `${running}|${world.project}|Just started|\n[archived]\n${old}|${vanished}|Old|\n`,
    );
    // A claude that is running on `running` but has had no message yet: no transcript, not missing.
    Deno.mkdirSync(t.ctx.paths.sessionsDir, { recursive: true });
    Deno.writeTextFileSync(
      join(t.ctx.paths.sessionsDir, `${Deno.pid}.json`),
      JSON.stringify({ pid: Deno.pid, sessionId: running, cwd: world.project }),
    );
    const report = await collectDoctorReport(t.ctx);
    assert.deepEqual(sections(report), { ...ALL_OK, registry: "warning" });
    assert.deepEqual(
      report.registry.missingTranscripts.map((m) => [m.number, m.archived, m.desc, m.guid, m.dir]),
      [[2, false, "Gone one", gone, world.project], [1, true, "Old", old, vanished]],
    );
    assert.deepEqual(report.registry.runningWithoutTranscript.map((m) => m.guid), [running]);
    assert.deepEqual(report.registry.missingDirs, [{
      dir: vanished,
      sessions: [{ number: 1, archived: true, guid: old, desc: "Old" }],
      moveCommand: `claudecm move ${vanished} <NEW>`,
    }]);
    assert.deepEqual(report.findings.map((f) => [f.section, f.severity]), [
      ["transcripts", "warning"],
      ["folders", "warning"],
    ]);
    // The hint says what resume really does with such a session today.
    assert.match(
      report.findings[0].message,
      /resuming one offers the vault's copy .*, else a fresh session .*; D# in the edit list removes it/,
    );
    assert.doesNotMatch(report.findings[0].message, /recovery primer/);
    assert.equal(await runDoctor(t.ctx, { json: false }), 0);
    const out = t.stdout();
    assert.match(
      out,
      /^ {2}transcripts +warning +2 of 4 registered session\(s\) have no transcript$/m,
    );
    assert.match(
      out,
      new RegExp(`^ +#2 Gone one {2}${gone} {2}${escapeRegExp(world.project)}$`, "m"),
    );
    assert.match(
      out,
      new RegExp(`^ +archived #1 Old {2}${old} {2}${escapeRegExp(vanished)}$`, "m"),
    );
    assert.match(out, new RegExp(`#3 Just started {2}${running}: running, no message sent yet`));
    assert.match(
      out,
      new RegExp(
        `^ {2}folders +warning .*\\n +${escapeRegExp(vanished)} {2}\\(archived #1 Old\\)$`,
        "m",
      ),
    );
    // One line to run, for a folder that was moved (issue 21).
    assert.match(out, new RegExp(`^ +claudecm move ${escapeRegExp(vanished)} <NEW>$`, "m"));
  });
});

Deno.test("doctor: an unreadable registry is a problem, not a crash", async () => {
  await withHealthy(async ({ t }) => {
    Deno.removeSync(t.ctx.paths.registryFile);
    Deno.mkdirSync(t.ctx.paths.registryFile);
    const report = await collectDoctorReport(t.ctx);
    assert.equal(report.registry.status, "problem");
    assert.match(report.registry.error!, /^cannot read .*sessions\.txt: /);
  });
});

Deno.test("doctor: no registry and no machine name yet are fine, and said so", async () => {
  await withHealthy(async ({ t }) => {
    Deno.removeSync(t.ctx.paths.registryFile);
    Deno.removeSync(t.ctx.paths.machineNameFile);
    assert.equal(await runDoctor(t.ctx, { json: false }), 0);
    assert.match(t.stdout(), /registry +ok +.*sessions\.txt not created yet/);
    assert.match(t.stdout(), /machine name +ok +not set \(.*'testhost' is used until then\)/);
  });
});

Deno.test("doctor: as root, whether claude would accept the bypass flag", async () => {
  await withHealthy(async ({ t }) => {
    const noUser = await collectDoctorReport(t.ctx, { runAsFacts: rootFacts(t, {}) });
    assert.equal(noUser.runAs.status, "warning");
    assert.deepEqual([noUser.runAs.bypassAllowed, noUser.runAs.permissionArgs], [false, []]);
    assert.match(noUser.warnings[0], /^runAs: running as root with no 'claude-x' user.*IS_SANDBOX/);
    assert.match(noUser.warnings[0], /to fix, create the user 'claude-x'/);
    assert.equal(noUser.ok, true, "a warning: claudecm starts claude without the flag");

    const user = { name: "claude-x", uid: 1000, home: "/home/claude-x", shell: "/bin/sh" };
    const reexec = await collectDoctorReport(t.ctx, {
      runAsFacts: rootFacts(t, { user, sudo: "/usr/bin/sudo" }),
    });
    assert.equal(reexec.runAs.status, "ok");
    assert.deepEqual([reexec.runAs.action, reexec.runAs.bypassAllowed], ["reexec", true]);
    assert.deepEqual(reexec.runAs.permissionArgs, ["--dangerously-skip-permissions"]);

    const noSwitcher = await collectDoctorReport(t.ctx, { runAsFacts: rootFacts(t, { user }) });
    assert.equal(noSwitcher.runAs.status, "warning");
    assert.match(
      noSwitcher.warnings[0],
      /neither sudo nor runuser.*to fix, install sudo or runuser/,
    );

    const rootUser = { ...user, uid: 0 };
    const toRoot = await collectDoctorReport(t.ctx, {
      runAsFacts: rootFacts(t, { user: rootUser, sudo: "/usr/bin/sudo" }),
    });
    assert.match(toRoot.warnings[0], /to fix, set CLAUDECM_RUN_AS to a user other than root/);

    const notRoot = await collectDoctorReport(t.ctx, { runAsFacts: rootFacts(t, { uid: 1000 }) });
    assert.deepEqual([notRoot.runAs.root, notRoot.runAs.status], [false, "ok"]);
  }, { IS_SANDBOX: "", CLAUDECM_RUN_AS: "claude-x" });
});

Deno.test("doctor: as root with a chosen permission mode, the bypass flag is not missed", async () => {
  await withHealthy(async ({ t }) => {
    const report = await collectDoctorReport(t.ctx, { runAsFacts: rootFacts(t, {}) });
    assert.equal(report.runAs.status, "ok");
    assert.deepEqual(report.runAs.permissionArgs, ["--permission-mode", "acceptEdits"]);
  }, { IS_SANDBOX: "", CLAUDECM_PERMISSION_MODE: "acceptEdits" });
});

Deno.test("doctor writes nothing, even with everything wrong, and never prompts", async () => {
  await withHealthy(async ({ world, t }) => {
    Deno.writeTextFileSync(t.ctx.paths.settingsFile, '{"cleanupPeriodDays": 30}');
    writeRegistryText(t.ctx.paths, `bad line\n${sessionId(9)}|/gone|Gone|\n`);
    Deno.removeSync(t.ctx.paths.machineNameFile);
    const before = treeState(world.home);
    assert.equal(await runDoctor(t.ctx, { json: false }), 1);
    assert.equal(await runDoctor(t.ctx, { json: true }), 1);
    assert.deepEqual(treeState(world.home), before);
    assert.deepEqual(t.questions, []);
  });
});

Deno.test("doctor --json: one object with a stable shape", async () => {
  await withHealthy(async ({ t }) => {
    assert.equal(await runDoctor(t.ctx, { json: true }), 0);
    const report = JSON.parse(t.stdout());
    assert.deepEqual(Object.keys(report), [
      "ok",
      "claude",
      "cmv",
      "settings",
      "registry",
      "runAs",
      "forecast",
      "permissions",
      "tempFiles",
      "machineName",
      "hostname",
      "paths",
      "findings",
      "problems",
      "warnings",
    ]);
    assert.deepEqual(Object.keys(report.forecast), ["folders", "cleanupPeriodDays", "expiring"]);
    assert.deepEqual(Object.keys(report.tempFiles), ["status", "files", "bytes"]);
    assert.deepEqual(Object.keys(report.claude), [
      "status",
      "found",
      "path",
      "source",
      "version",
      "features",
      "error",
    ]);
    assert.deepEqual(Object.keys(report.settings), [
      "status",
      "path",
      "exists",
      "parseable",
      "cleanupPeriodDays",
      "protected",
      "error",
    ]);
    assert.deepEqual(Object.keys(report.registry), [
      "status",
      "path",
      "exists",
      "error",
      "sessions",
      "archived",
      "malformedLines",
      "missingTranscripts",
      "unreadableTranscripts",
      "runningWithoutTranscript",
      "missingDirs",
    ]);
    assert.deepEqual(Object.keys(report.runAs), [
      "status",
      "root",
      "runAsUser",
      "action",
      "bypassAllowed",
      "permissionArgs",
      "notice",
    ]);
    assert.deepEqual(Object.keys(report.paths), [
      "cmHome",
      "claudeRoot",
      "projectsDir",
      "settingsFile",
      "registryFile",
      "backupDir",
      "quarantineRoot",
      "vaultDir",
    ]);
  });
});

Deno.test("doctor: temporary files of killed runs are a warning, each with its size; nothing removed", async () => {
  await withHealthy(async ({ world, t, guid }) => {
    const folder = join(t.ctx.paths.projectsDir, projectKey(world.project));
    const dead = "999999999";
    const restoreTemp = join(folder, `${guid}.jsonl.tmp-${dead}`);
    const vaultTemp = join(t.ctx.paths.vaultDir, "key", `${guid}.jsonl.tmp-${dead}`);
    const sidecarTemp = join(folder, guid, "tool-results", `out.txt.tmp-${dead}`);
    const running = join(folder, `${guid}.jsonl.tmp-${Deno.pid}`);
    const notOurs = join(folder, `notes.md.tmp-${dead}`);
    Deno.mkdirSync(join(t.ctx.paths.vaultDir, "key"), { recursive: true });
    Deno.mkdirSync(join(folder, guid, "tool-results"), { recursive: true });
    Deno.writeTextFileSync(restoreTemp, "x".repeat(3000));
    Deno.writeTextFileSync(vaultTemp, "y".repeat(100));
    Deno.writeTextFileSync(sidecarTemp, "z");
    Deno.writeTextFileSync(running, "still being written");
    Deno.writeTextFileSync(notOurs, "a user's file");
    const report = await collectDoctorReport(t.ctx);
    assert.equal(report.tempFiles.status, "warning");
    assert.deepEqual(
      report.tempFiles.files.map((f) => [f.path, f.bytes]).sort(),
      [[restoreTemp, 3000], [sidecarTemp, 1], [vaultTemp, 100]].sort(),
    );
    assert.equal(report.tempFiles.bytes, 3101);
    assert.match(report.warnings.join("\n"), /3 temporary file\(s\) of killed claudecm runs/);
    assert.equal(await runDoctor(t.ctx, { json: false }), 0);
    assert.match(t.stdout(), /^ {2}temp files +warning +3 left by killed runs \(3 KB\)$/m);
    assert.match(t.stdout(), new RegExp(`${escapeRegExp(restoreTemp)} {2}\\(3 KB\\)`));
    for (const path of [restoreTemp, vaultTemp, sidecarTemp, running, notOurs]) {
      assert.ok(Deno.statSync(path).isFile, `doctor wrote nothing: ${path}`);
    }
  });
});

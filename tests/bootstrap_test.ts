import assert from "node:assert/strict";
import { bootstrap, readMachineName, saveMachineName } from "../lib/app/bootstrap/bootstrap.ts";
import { ensureCleanupPeriod, readSettings } from "../lib/app/bootstrap/settings.ts";
import { createTestContext } from "./helpers/test_context.ts";
import { ON_WINDOWS, symlinkIfSupported } from "./helpers/portable.ts";

const NOW = new Date(2026, 10, 30, 12, 0, 0);

async function withSettings(
  text: string | null,
  check: (t: ReturnType<typeof createTestContext>) => Promise<void>,
): Promise<void> {
  const t = createTestContext();
  try {
    Deno.mkdirSync(t.ctx.paths.claudeRoot, { recursive: true });
    if (text !== null) Deno.writeTextFileSync(t.ctx.paths.settingsFile, text);
    await check(t);
  } finally {
    t.cleanup();
  }
}

function backups(t: ReturnType<typeof createTestContext>): string[] {
  try {
    return [...Deno.readDirSync(t.ctx.paths.backupDir)].map((e) => e.name).sort();
  } catch {
    return [];
  }
}

Deno.test("cleanupPeriodDays is added in place: other keys keep their bytes, backup first", async () => {
  const original = '{\n    "model": "opus",\n    "env": {"A": "1"}\n}\n';
  await withSettings(original, async (t) => {
    assert.equal(await ensureCleanupPeriod(t.ctx.paths, NOW), true);
    const text = Deno.readTextFileSync(t.ctx.paths.settingsFile);
    assert.equal(JSON.parse(text).cleanupPeriodDays, 100000);
    assert.equal(
      text,
      '{\n    "model": "opus",\n    "env": {"A": "1"},\n    "cleanupPeriodDays": 100000\n}\n',
    );
    assert.deepEqual(backups(t), ["settings.json.20261130-120000"]);
    assert.equal(
      Deno.readTextFileSync(`${t.ctx.paths.backupDir}/settings.json.20261130-120000`),
      original,
    );
  });
});

Deno.test("a low cleanupPeriodDays is raised; 1000 or more is left alone", async () => {
  await withSettings('{"cleanupPeriodDays": 30, "x": [1,2]}', async (t) => {
    assert.equal(await ensureCleanupPeriod(t.ctx.paths, NOW), true);
    assert.equal(
      Deno.readTextFileSync(t.ctx.paths.settingsFile),
      '{"cleanupPeriodDays": 100000, "x": [1,2]}',
    );
  });
  await withSettings('{"cleanupPeriodDays": 1000}', async (t) => {
    assert.equal(await ensureCleanupPeriod(t.ctx.paths, NOW), false);
    assert.deepEqual(backups(t), []);
  });
});

Deno.test("a settings.json that starts with a BOM is read and raised as Claude Code reads it, the BOM kept", async () => {
  await withSettings('\ufeff{\r\n  "theme": "dark"\r\n}\r\n', async (t) => {
    const read = await readSettings(t.ctx.paths);
    assert.equal(read.state, "parsed");
    assert.equal(await ensureCleanupPeriod(t.ctx.paths, NOW), true);
    assert.equal(
      Deno.readTextFileSync(t.ctx.paths.settingsFile),
      '\ufeff{\r\n  "theme": "dark",\r\n  "cleanupPeriodDays": 100000\r\n}\r\n',
    );
  });
});

Deno.test("a cleanupPeriodDays that is no whole number of days is raised", async () => {
  for (const value of ["1000.5", "1e400", '"100000"', "true"]) {
    await withSettings(`{"cleanupPeriodDays": ${value}}`, async (t) => {
      assert.equal(await ensureCleanupPeriod(t.ctx.paths, NOW), true, value);
      assert.equal(
        JSON.parse(Deno.readTextFileSync(t.ctx.paths.settingsFile)).cleanupPeriodDays,
        100_000,
        value,
      );
    });
  }
});

Deno.test({
  name: "the settings.json backup is as private as settings.json (it may hold API keys)",
  ignore: ON_WINDOWS,
  fn: async () => {
    await withSettings('{"env": {"ANTHROPIC_API_KEY": "sk-secret"}}', async (t) => {
      Deno.chmodSync(t.ctx.paths.settingsFile, 0o600);
      assert.equal(await ensureCleanupPeriod(t.ctx.paths, NOW), true);
      const [backup] = backups(t).filter((name) => name.startsWith("settings.json."));
      const mode = Deno.statSync(`${t.ctx.paths.backupDir}/${backup}`).mode! & 0o777;
      assert.equal(mode.toString(8), "600");
    });
  },
});

Deno.test({
  name:
    "a pipe at settings.json or machine-name.txt is reported, never read (a read would never end)",
  ignore: ON_WINDOWS,
  fn: async () => {
    await withSettings(null, async (t) => {
      for (const path of [t.ctx.paths.settingsFile, t.ctx.paths.machineNameFile]) {
        Deno.mkdirSync(path.slice(0, path.lastIndexOf("/")), { recursive: true });
        new Deno.Command("mkfifo", { args: [path] }).outputSync();
      }
      const read = await readSettings(t.ctx.paths);
      assert.equal(read.state, "unusable");
      assert.match(read.state === "unusable" ? read.reason : "", /not a regular file/);
      assert.equal(await ensureCleanupPeriod(t.ctx.paths, NOW), false);
      assert.equal(readMachineName(t.ctx), null);
    });
  },
});

Deno.test({
  name: "a settings.json or machine-name.txt that links to a file not made yet is written through",
  ignore: ON_WINDOWS,
  fn: async () => {
    await withSettings(null, async (t) => {
      const dotfiles = `${t.home}/dotfiles`;
      Deno.mkdirSync(dotfiles);
      Deno.symlinkSync(`${dotfiles}/claude-settings.json`, t.ctx.paths.settingsFile);
      assert.equal(await ensureCleanupPeriod(t.ctx.paths, NOW), true);
      assert.ok(Deno.lstatSync(t.ctx.paths.settingsFile).isSymlink, "still a link");
      assert.equal(
        JSON.parse(Deno.readTextFileSync(`${dotfiles}/claude-settings.json`)).cleanupPeriodDays,
        100_000,
      );
      Deno.mkdirSync(t.ctx.paths.cmHome, { recursive: true });
      Deno.symlinkSync("../dotfiles/machine", t.ctx.paths.machineNameFile);
      assert.equal(saveMachineName(t.ctx, "desk"), "desk");
      assert.ok(Deno.lstatSync(t.ctx.paths.machineNameFile).isSymlink, "still a link");
      assert.equal(Deno.readTextFileSync(`${dotfiles}/machine`), "desk\n");
    });
  },
});

Deno.test({
  name: "a relative link inside a linked ~/.claude is followed from where it really is",
  ignore: ON_WINDOWS,
  fn: async () => {
    const t = createTestContext();
    try {
      // ~/.claude -> real/claude, and real/claude/settings.json -> ../dotfiles/settings.json
      const real = `${t.home}/real`;
      Deno.mkdirSync(`${real}/claude`, { recursive: true });
      Deno.mkdirSync(`${real}/dotfiles`);
      Deno.symlinkSync(`${real}/claude`, t.ctx.paths.claudeRoot);
      Deno.symlinkSync("../dotfiles/settings.json", `${real}/claude/settings.json`);
      assert.equal(await ensureCleanupPeriod(t.ctx.paths, NOW), true);
      assert.match(Deno.readTextFileSync(`${real}/dotfiles/settings.json`), /100000/);
      assert.throws(() => Deno.statSync(`${t.home}/dotfiles`), Deno.errors.NotFound, "no stray");
    } finally {
      t.cleanup();
    }
  },
});

Deno.test({
  name:
    "a machine-name.txt link into a folder that is gone: the name is used for the run, said once",
  ignore: ON_WINDOWS,
  fn: async () => {
    const t = createTestContext({ answers: ["laptop"] });
    try {
      Deno.mkdirSync(t.ctx.paths.cmHome, { recursive: true });
      Deno.symlinkSync(`${t.home}/gone/machine`, t.ctx.paths.machineNameFile);
      const { machineName } = await bootstrap(t.ctx, { mayPrompt: true });
      assert.equal(machineName, "laptop");
      assert.match(t.stderr(), /machine name could not be saved .*used for this run only/);
    } finally {
      t.cleanup();
    }
  },
});

Deno.test("commented or broken settings.json is left untouched and silent", async () => {
  for (const text of ['{\n  // my comment\n  "model": "opus"\n}', "{ broken", "[1, 2]", ""]) {
    await withSettings(text, async (t) => {
      assert.equal(await ensureCleanupPeriod(t.ctx.paths, NOW), false, String(text));
      assert.equal(Deno.readTextFileSync(t.ctx.paths.settingsFile), text);
      assert.deepEqual(backups(t), []);
    });
  }
});

Deno.test("a missing settings.json is created holding cleanupPeriodDays, with the message (issue 18.4)", async () => {
  const t = createTestContext();
  try {
    // No ~/.claude at all yet: a first run before claude ever ran.
    await bootstrap(t.ctx, { mayPrompt: false });
    const created = JSON.parse(Deno.readTextFileSync(t.ctx.paths.settingsFile));
    assert.deepEqual(created, { cleanupPeriodDays: 100000 });
    assert.match(t.stderr(), /Protected session transcripts/);
    assert.equal(await ensureCleanupPeriod(t.ctx.paths, NOW), false, "protected from then on");
  } finally {
    t.cleanup();
  }
});

Deno.test("bytes that are not UTF-8 survive the edit: only the number changes (issue 17.11)", async () => {
  const encode = (text: string) => Uint8Array.from(text, (c) => c.charCodeAt(0));
  await withSettings(null, async (t) => {
    const file = t.ctx.paths.settingsFile;
    Deno.writeFileSync(file, encode('{"note":"caf\xe9","cleanupPeriodDays":30}'));
    assert.equal(await ensureCleanupPeriod(t.ctx.paths, NOW), true);
    assert.deepEqual(
      Deno.readFileSync(file),
      encode('{"note":"caf\xe9","cleanupPeriodDays":100000}'),
    );
  });
});

Deno.test("readSettings tells missing, unusable (with why) and parsed apart, changing nothing", async () => {
  await withSettings(null, async (t) => {
    assert.deepEqual(await readSettings(t.ctx.paths), { state: "missing" });
  });
  const cases: Array<[string, RegExp]> = [
    ['{\n  // my comment\n  "model": "opus"\n}', /comments or trailing commas/],
    ['{"a": 1,}', /comments or trailing commas/],
    ["{ broken", /is not valid JSON/],
    ["", /is not valid JSON/],
    ["[1, 2]", /is not a JSON object/],
  ];
  for (const [text, reason] of cases) {
    await withSettings(text, async (t) => {
      const read = await readSettings(t.ctx.paths);
      assert.equal(read.state, "unusable", text);
      assert.match(read.state === "unusable" ? read.reason : "", reason);
    });
  }
  await withSettings('{"cleanupPeriodDays": 30}', async (t) => {
    const read = await readSettings(t.ctx.paths);
    assert.equal(read.state === "parsed" && read.cleanupPeriodDays, 30);
    assert.equal(Deno.readTextFileSync(t.ctx.paths.settingsFile), '{"cleanupPeriodDays": 30}');
  });
});

Deno.test("a symlinked settings.json is edited through the link, keeping its mode", async () => {
  await withSettings(null, async (t) => {
    const real = `${t.home}/dotfiles-settings.json`;
    Deno.writeTextFileSync(real, "{}");
    Deno.chmodSync(real, 0o600);
    if (!symlinkIfSupported(real, t.ctx.paths.settingsFile)) return;
    assert.equal(await ensureCleanupPeriod(t.ctx.paths, NOW), true);
    assert.equal(Deno.lstatSync(t.ctx.paths.settingsFile).isSymlink, true);
    assert.equal(JSON.parse(Deno.readTextFileSync(real)).cleanupPeriodDays, 100000);
    // Windows has no mode bits.
    if (!ON_WINDOWS) assert.equal(Deno.statSync(real).mode! & 0o777, 0o600);
  });
});

Deno.test("bootstrap creates state, prints the protection line and asks the machine name once", async () => {
  const t = createTestContext({ answers: ["laptop"], now: NOW });
  try {
    Deno.mkdirSync(t.ctx.paths.claudeRoot, { recursive: true });
    Deno.writeTextFileSync(t.ctx.paths.settingsFile, "{}");
    assert.deepEqual(await bootstrap(t.ctx, { mayPrompt: true }), { machineName: "laptop" });
    assert.equal(t.env.CLAUDE_CODE_REMOTE_SEND_KEEPALIVES, "1");
    assert.equal(Deno.readTextFileSync(t.ctx.paths.registryFile), "");
    assert.equal(Deno.readTextFileSync(t.ctx.paths.machineNameFile), "laptop\n");
    assert.match(t.stderr(), /Protected session transcripts/);
    assert.match(t.stderr(), /Saved: laptop/);
    assert.deepEqual(t.questions, ["  Machine name for remote display (e.g. desktop, laptop): "]);
    assert.deepEqual(await bootstrap(t.ctx, { mayPrompt: true }), { machineName: "laptop" });
    assert.equal(t.questions.length, 1);
  } finally {
    t.cleanup();
  }
});

Deno.test("machine name: empty answer saves the hostname; no-prompt mode uses it unsaved", async () => {
  const t = createTestContext({ answers: [""] });
  try {
    assert.equal((await bootstrap(t.ctx, { mayPrompt: false })).machineName, "testhost");
    assert.throws(() => Deno.statSync(t.ctx.paths.machineNameFile), Deno.errors.NotFound);
    assert.equal(t.questions.length, 0);
    assert.equal((await bootstrap(t.ctx, { mayPrompt: true })).machineName, "testhost");
    assert.equal(Deno.readTextFileSync(t.ctx.paths.machineNameFile), "testhost\n");
  } finally {
    t.cleanup();
  }
});

Deno.test("bootstrap keeps the newest 20 registry backups and never truncates the registry", async () => {
  const t = createTestContext();
  try {
    Deno.mkdirSync(t.ctx.paths.backupDir, { recursive: true });
    Deno.mkdirSync(t.ctx.paths.cmHome, { recursive: true });
    Deno.writeTextFileSync(t.ctx.paths.machineNameFile, "desk\n");
    Deno.writeTextFileSync(t.ctx.paths.registryFile, "keep me\n");
    for (let i = 0; i < 25; i++) {
      Deno.writeTextFileSync(
        `${t.ctx.paths.backupDir}/sessions.txt.20250101-0000${String(i).padStart(2, "0")}`,
        `state ${i}\n`,
      );
    }
    Deno.writeTextFileSync(`${t.ctx.paths.backupDir}/settings.json.20200101-000000`, "");
    await bootstrap(t.ctx, { mayPrompt: false });
    const names = backups(t);
    const registryBackups = names.filter((n) => n.startsWith("sessions.txt."));
    assert.equal(registryBackups.length, 20);
    assert.equal(registryBackups.at(-1), "sessions.txt.20261130-120000");
    assert.equal(registryBackups[0], "sessions.txt.20250101-000006");
    assert.ok(names.includes("settings.json.20200101-000000"));
    assert.equal(Deno.readTextFileSync(t.ctx.paths.registryFile), "keep me\n");
  } finally {
    t.cleanup();
  }
});

Deno.test("duplicate cleanupPeriodDays keys: the one JSON parsing sees is raised, once", async () => {
  const original =
    '{\n  "cleanupPeriodDays": 30,\n  "model": "opus",\n  "cleanupPeriodDays": 7\n}\n';
  await withSettings(original, async (t) => {
    Deno.mkdirSync(t.ctx.paths.cmHome, { recursive: true });
    Deno.writeTextFileSync(t.ctx.paths.machineNameFile, "desk\n");
    await bootstrap(t.ctx, { mayPrompt: false });
    const text = Deno.readTextFileSync(t.ctx.paths.settingsFile);
    assert.equal(JSON.parse(text).cleanupPeriodDays, 100000);
    assert.equal(text, original.replace("30", "100000").replace("7", "100000"));
    const settingsBackups = () => backups(t).filter((name) => name.startsWith("settings.json"));
    assert.equal(settingsBackups().length, 1);
    assert.match(t.stderr(), /Protected session transcripts/);
    const printed = t.stderr().length;
    assert.equal(await ensureCleanupPeriod(t.ctx.paths, new Date(2026, 10, 30, 13, 0, 0)), false);
    await bootstrap(t.ctx, { mayPrompt: false });
    assert.equal(t.stderr().length, printed, "a later run prints nothing");
    assert.equal(settingsBackups().length, 1, "and writes no new backup");
  });
});

Deno.test("the machine name is replaced by a rename, never truncated in place (a kill leaves the old name)", () => {
  const t = createTestContext();
  try {
    saveMachineName(t.ctx, "desktop");
    const before = Deno.statSync(t.ctx.paths.machineNameFile).ino;
    saveMachineName(t.ctx, "laptop");
    assert.equal(Deno.readTextFileSync(t.ctx.paths.machineNameFile), "laptop\n");
    assert.notEqual(Deno.statSync(t.ctx.paths.machineNameFile).ino, before);
  } finally {
    t.cleanup();
  }
});

Deno.test("a machine name is stored and read cleaned: it goes into every session's -n", () => {
  const t = createTestContext();
  try {
    assert.equal(saveMachineName(t.ctx, "desk\x1b]0;owned\x07\x1b[2J\ttop\u202E"), "desk top");
    assert.equal(Deno.readTextFileSync(t.ctx.paths.machineNameFile), "desk top\n");
    assert.equal(saveMachineName(t.ctx, "\x1b[2J \t"), null, "nothing left: nothing saved");
    assert.equal(Deno.readTextFileSync(t.ctx.paths.machineNameFile), "desk top\n");
    Deno.writeTextFileSync(t.ctx.paths.machineNameFile, "edited\x1b[31m by hand\n");
    assert.equal(readMachineName(t.ctx), "edited by hand");
  } finally {
    t.cleanup();
  }
});

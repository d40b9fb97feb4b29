import assert from "node:assert/strict";
import { tmpfsMountable } from "./helpers/full_disk.ts";
import { fileURLToPath } from "node:url";
import { backupRegistry } from "../lib/store/backups.ts";
import { childBaseEnv } from "./helpers/child.ts";
import { createTestContext, type TestContext } from "./helpers/test_context.ts";

const FULL_DISK = fileURLToPath(new URL("./helpers/full_disk_backups.ts", import.meta.url));

const at = (minute: number) => new Date(2026, 10, 30, 12, minute, 0);

function backups(t: TestContext): string[] {
  return [...Deno.readDirSync(t.ctx.paths.backupDir)].map((entry) => entry.name).sort();
}

function setup(): TestContext {
  const t = createTestContext();
  Deno.mkdirSync(t.ctx.paths.backupDir, { recursive: true });
  return t;
}

Deno.test("a registry backup identical to the newest one is not written again", () => {
  const t = setup();
  try {
    Deno.writeTextFileSync(t.ctx.paths.registryFile, "state A\n");
    for (let minute = 0; minute < 30; minute++) {
      assert.equal(backupRegistry(t.ctx.paths, at(minute)), null);
    }
    assert.deepEqual(backups(t), ["sessions.txt.20261130-120000"]);
    Deno.writeTextFileSync(t.ctx.paths.registryFile, "state B\n");
    backupRegistry(t.ctx.paths, at(40));
    Deno.writeTextFileSync(t.ctx.paths.registryFile, "state A\n");
    backupRegistry(t.ctx.paths, at(41));
    backupRegistry(t.ctx.paths, at(42));
    assert.deepEqual(backups(t), [
      "sessions.txt.20261130-120000",
      "sessions.txt.20261130-124000",
      "sessions.txt.20261130-124100",
    ]);
  } finally {
    t.cleanup();
  }
});

Deno.test("after the clock went back, the newest backup is the one just written, and it is kept", () => {
  const t = setup();
  try {
    // Twenty backups stamped ahead of today's clock (a time zone crossed, a clock corrected).
    for (let n = 0; n < 20; n++) {
      const path = `${t.ctx.paths.backupDir}/sessions.txt.20301130-1200${
        String(n).padStart(2, "0")
      }`;
      Deno.writeTextFileSync(path, `state ${n}\n`);
      const written = new Date(Date.now() - (60 - n) * 60_000);
      Deno.utimeSync(path, written, written);
    }
    Deno.writeTextFileSync(t.ctx.paths.registryFile, "today's state\n");
    assert.equal(backupRegistry(t.ctx.paths, at(0)), null);
    const names = backups(t);
    assert.equal(names.length, 20);
    assert.ok(names.includes("sessions.txt.20261130-120000"), "the current registry has a backup");
    assert.ok(!names.includes("sessions.txt.20301130-120000"), "the oldest written went");
    // And it counts as the newest: the same state is not backed up again.
    backupRegistry(t.ctx.paths, at(1));
    assert.ok(!backups(t).includes("sessions.txt.20261130-120100"));
    // A clock that was ahead when they were written (their mtimes in the future): still kept.
    const ahead = new Date(Date.now() + 86_400_000);
    for (const name of backups(t)) Deno.utimeSync(`${t.ctx.paths.backupDir}/${name}`, ahead, ahead);
    Deno.writeTextFileSync(t.ctx.paths.registryFile, "a later state\n");
    assert.equal(backupRegistry(t.ctx.paths, at(2)), null);
    assert.ok(backups(t).includes("sessions.txt.20261130-120200"), "the one just written stays");
    assert.equal(backups(t).length, 20);
  } finally {
    t.cleanup();
  }
});

Deno.test("pruning keeps the newest 20 complete backups; empty ones never count", () => {
  const t = setup();
  try {
    for (let n = 0; n < 25; n++) {
      const stamp = `sessions.txt.20250101-0000${String(n).padStart(2, "0")}`;
      // Every other one is empty, as an older claudecm left them on a full disk.
      Deno.writeTextFileSync(
        `${t.ctx.paths.backupDir}/${stamp}`,
        n % 2 === 0 ? `state ${n}\n` : "",
      );
    }
    Deno.writeTextFileSync(
      `${t.ctx.paths.backupDir}/sessions.txt.20250101-000099.tmp-999999999`,
      "",
    );
    Deno.writeTextFileSync(t.ctx.paths.registryFile, "now\n");
    assert.equal(backupRegistry(t.ctx.paths, at(0)), null);
    const names = backups(t);
    assert.equal(names.length, 14);
    assert.equal(names.at(-1), "sessions.txt.20261130-120000");
    for (const name of names) assert.ok(Deno.statSync(`${t.ctx.paths.backupDir}/${name}`).size > 0);
  } finally {
    t.cleanup();
  }
});

Deno.test({
  name: "a full disk leaves no empty backup and never evicts a good one",
  ignore: !tmpfsMountable(),
  fn: async () => {
    const t = setup();
    try {
      const script = 'mount -t tmpfs -o size=256k tmpfs "$1" && shift && exec "$@"';
      const result = await new Deno.Command("unshare", {
        args: [
          "-r",
          "-m",
          "sh",
          "-c",
          script,
          "sh",
          t.ctx.paths.backupDir,
          Deno.execPath(),
          "run",
          "--allow-all",
          "--quiet",
          FULL_DISK,
        ],
        env: { ...childBaseEnv(), ...t.env },
        clearEnv: true,
      }).output();
      const stderr = new TextDecoder().decode(result.stderr);
      assert.equal(result.code, 0, stderr);
      const { failures, files } = JSON.parse(new TextDecoder().decode(result.stdout));
      assert.deepEqual(failures, ["ENOSPC", "ENOSPC", "ENOSPC"]);
      const names = files.map((file: { name: string }) => file.name);
      assert.equal(names.length, 20, JSON.stringify(files));
      for (const file of files) assert.ok(file.size > 0, `${file.name} is empty`);
      // Only the oldest good state made room for the newest.
      assert.equal(names[0], "sessions.txt.20261130-120100");
      assert.equal(names.at(-1), "sessions.txt.20261130-122300");
    } finally {
      t.cleanup();
    }
  },
});

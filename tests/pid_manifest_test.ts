import assert from "node:assert/strict";
import { isManifestLive, listPidManifests, readPidManifest } from "../lib/core/pid_manifest.ts";
import { hostProcesses, isProcessAlive } from "../lib/platform/processes.ts";
import { createTestContext } from "./helpers/test_context.ts";
import { sessionId } from "./helpers/claude_home.ts";

function ownStartTime(): string | undefined {
  if (Deno.build.os !== "linux") return undefined;
  const stat = Deno.readTextFileSync("/proc/self/stat");
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19];
}

Deno.test("manifests are read like the real ones and junk is skipped", () => {
  const t = createTestContext();
  try {
    const dir = t.ctx.paths.sessionsDir;
    Deno.mkdirSync(dir, { recursive: true });
    const real = JSON.parse(
      Deno.readTextFileSync(
        new URL("../fixtures/reference/example-pid-manifest-2.1.332.json", import.meta.url),
      ),
    );
    Deno.writeTextFileSync(`${dir}/${real.pid}.json`, JSON.stringify(real));
    Deno.writeTextFileSync(`${dir}/77.json`, "{ half written");
    Deno.writeTextFileSync(
      `${dir}/78.json`,
      JSON.stringify({ pid: 78, sessionId: "nope", cwd: "/" }),
    );
    Deno.writeTextFileSync(`${dir}/notes.txt`, "x");
    const manifest = readPidManifest(t.ctx.paths, real.pid);
    assert.equal(manifest?.sessionId, "7c9e2f4a-3b1d-4e8f-9a2c-5d6e7f8a9b0c");
    assert.equal(manifest?.cwd, "/home/alice/src/claudecm");
    assert.equal(manifest?.procStart, "9123456");
    assert.deepEqual(listPidManifests(t.ctx.paths).map((m) => m.pid), [real.pid]);
    assert.equal(readPidManifest(t.ctx.paths, 12345), null);
  } finally {
    t.cleanup();
  }
});

Deno.test("liveness: our own pid is live, a finished process is not, a reused pid is not", async () => {
  const base = { sessionId: sessionId(1), cwd: "/" };
  assert.equal(
    isManifestLive({ ...base, pid: Deno.pid, procStart: ownStartTime() }, hostProcesses),
    true,
  );
  const child = new Deno.Command(Deno.execPath(), { args: ["--version"], stdout: "null" }).spawn();
  await child.status;
  assert.equal(isProcessAlive(child.pid), false);
  assert.equal(isManifestLive({ ...base, pid: child.pid }, hostProcesses), false);
  if (Deno.build.os === "linux") {
    assert.equal(isManifestLive({ ...base, pid: Deno.pid, procStart: "1" }, hostProcesses), false);
  }
});

Deno.test("isProcessAlive: a running pid is, a waited-for child is not, no pid a claude cannot have is", async () => {
  assert.equal(isProcessAlive(Deno.pid), true);
  const child = new Deno.Command(Deno.execPath(), {
    args: ["eval", "setTimeout(() => {}, 60_000)"],
    stdout: "null",
  }).spawn();
  assert.equal(isProcessAlive(child.pid), true, "alive while it runs");
  child.kill("SIGKILL");
  await child.status;
  assert.equal(isProcessAlive(child.pid), false, "gone once waited for");
  if (Deno.build.os !== "windows") {
    // pid 1 always runs; as a non-root user the probe gets EPERM, which still means alive.
    assert.equal(isProcessAlive(1), true);
  }
  for (const pid of [0, -1, -Deno.pid, 1.5, Number.NaN, Number.MAX_VALUE]) {
    assert.equal(isProcessAlive(pid), false, `pid ${pid}`);
  }
});

Deno.test({
  name: "isProcessAlive: a zombie, exited and never reaped, is gone",
  ignore: Deno.build.os !== "linux",
  fn: async () => {
    // `sleep 0.1` ends under a parent that never waits for it (`exec sleep 30`): a zombie.
    const parent = new Deno.Command("sh", {
      args: ["-c", "sleep 0.1 & echo $!; exec sleep 30"],
      stdout: "piped",
    }).spawn();
    const reader = parent.stdout.getReader();
    const { value } = await reader.read();
    reader.releaseLock();
    const zombie = Number(new TextDecoder().decode(value).trim());
    try {
      const deadline = Date.now() + 10_000;
      const state = () => Deno.readTextFileSync(`/proc/${zombie}/stat`).split(") ")[1][0];
      while (state() !== "Z" && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      assert.equal(state(), "Z", "the child is a zombie");
      assert.equal(isProcessAlive(zombie), false);
    } finally {
      parent.kill("SIGKILL");
      await parent.status;
      await parent.stdout.cancel().catch(() => {});
    }
  },
});

Deno.test("isManifestLive decides from the OS's facts: a reused pid is not the claude, where starts are told", () => {
  // The facts are a parameter: Linux's /proc and an OS without start times both run here.
  const manifest = { pid: 4242, sessionId: sessionId(2), cwd: "/w", procStart: "100" };
  const facts = (start: string | null, tellsStart: boolean) => ({
    isAlive: (pid: number) => pid === 4242,
    tellsStart,
    startOf: () => start,
    self: 1,
  });
  assert.equal(isManifestLive(manifest, facts("100", true)), true);
  assert.equal(isManifestLive(manifest, facts("999", true)), false, "the pid was reused");
  assert.equal(isManifestLive(manifest, facts(null, true)), false, "gone between the two looks");
  assert.equal(isManifestLive(manifest, facts(null, false)), true, "no start times: alive is all");
  assert.equal(isManifestLive({ ...manifest, pid: 7 }, facts("100", true)), false);
});

import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import {
  findSession,
  mainSessions,
  parseRegistry,
  serializeRegistry,
} from "../lib/core/registry.ts";
import { addAtTop, moveToTop, renameSession, setTokens } from "../lib/core/registry_ops.ts";
import { readRegistry, updateRegistry } from "../lib/store/registry_store.ts";
import { withFileLock } from "../lib/store/lock.ts";
import { createTestContext } from "./helpers/test_context.ts";
import { childBaseEnv } from "./helpers/child.ts";
import { pathExists } from "../lib/core/fs_checks.ts";
import { sessionId, writeRegistryText } from "./helpers/claude_home.ts";

const HAMMER = fileURLToPath(new URL("./helpers/registry_hammer.ts", import.meta.url));
const STALL = fileURLToPath(new URL("./helpers/registry_stall.ts", import.meta.url));
const COUNTER = sessionId(0xc0ffee);

function seed(t: ReturnType<typeof createTestContext>, filler = bigFiller(60)): string {
  const lines = [`${COUNTER}|/counter dir|Counter|0`, "malformed but precious", ...filler];
  const text = lines.join("\n") + "\n";
  writeRegistryText(t.ctx.paths, text);
  return text;
}

function bigFiller(rows: number): string[] {
  return Array.from({ length: rows }, (_, i) => `${sessionId(i + 1)}|/p/${i}|Filler ${i}|${i}`);
}

function hammer(t: ReturnType<typeof createTestContext>, count: number): Deno.ChildProcess {
  return new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-all", "--quiet", HAMMER, COUNTER, String(count)],
    // The tests' own Deno cache: a cold one in the temp HOME makes start-up slow under load.
    env: { ...childBaseEnv(), ...t.env },
    clearEnv: true,
    stdout: "null",
    stderr: "piped",
  }).spawn();
}

Deno.test("updateRegistry writes through the lock and leaves no temp file", async () => {
  const t = createTestContext();
  try {
    seed(t);
    const written = await updateRegistry(t.ctx.paths, (r) => setTokens(r, COUNTER, 7));
    assert.equal(findSession(written, COUNTER)?.tokens, "7");
    assert.equal(findSession(readRegistry(t.ctx.paths), COUNTER)?.tokens, "7");
    assert.match(Deno.readTextFileSync(t.ctx.paths.registryFile), /malformed but precious/);
    const names = [...Deno.readDirSync(t.ctx.paths.cmHome)].map((e) => e.name).sort();
    assert.deepEqual(names, ["sessions.txt", "sessions.txt.lock", "sessions.txt.swap.lock"]);
  } finally {
    t.cleanup();
  }
});

Deno.test("a write sweeps the temporary file a killed unlocked writer left (issue 30.15)", async () => {
  const t = createTestContext();
  try {
    seed(t);
    const stale = `${t.ctx.paths.registryFile}.tmp-999999999`;
    const other = `${t.ctx.paths.cmHome}/notes.txt.tmp-999999999`;
    Deno.writeTextFileSync(stale, "half a list");
    Deno.writeTextFileSync(other, "not the registry's");
    await updateRegistry(t.ctx.paths, (r) => setTokens(r, COUNTER, 3));
    assert.equal(pathExists(stale), false, "the dead writer's temp file is gone");
    assert.equal(pathExists(other), true, "another file's temp is not the registry's to sweep");
  } finally {
    t.cleanup();
  }
});

Deno.test("a change that leaves the content as it was does not rewrite the file", async () => {
  const t = createTestContext();
  try {
    const text = `${COUNTER}|/counter dir|Counter|0\n\n${sessionId(1)}|/p|Other|\r\n`;
    writeRegistryText(t.ctx.paths, text);
    const before = Deno.statSync(t.ctx.paths.registryFile);
    // Resuming #1 while it is already on top changes nothing.
    await updateRegistry(t.ctx.paths, (r) => moveToTop(r, COUNTER));
    await updateRegistry(t.ctx.paths, (r) => setTokens(r, COUNTER, 0));
    const after = Deno.statSync(t.ctx.paths.registryFile);
    assert.equal(after.ino, before.ino, "the file was not replaced");
    assert.equal(after.mtime?.getTime(), before.mtime?.getTime());
    assert.equal(Deno.readTextFileSync(t.ctx.paths.registryFile), text);
  } finally {
    t.cleanup();
  }
});

Deno.test("bytes that are not UTF-8 survive an unrelated write byte for byte", async () => {
  const t = createTestContext();
  try {
    const latin1 = (text: string) => Uint8Array.from(text, (c) => c.charCodeAt(0));
    const latinRow = latin1(`${sessionId(1)}|/home/u/caf\xe9|Caf\xe9 cr\xe8me|5\n`);
    const unparsable = latin1("\xff\xfe broken \xe9 line\n");
    const counter = new TextEncoder().encode(`${COUNTER}|/counter dir|Counter|0\n`);
    const file = new Uint8Array([...latinRow, ...unparsable, ...counter]);
    Deno.mkdirSync(t.ctx.paths.cmHome, { recursive: true });
    Deno.writeFileSync(t.ctx.paths.registryFile, file);

    await updateRegistry(t.ctx.paths, (r) => setTokens(r, COUNTER, 9));
    const retokened = new TextEncoder().encode(`${COUNTER}|/counter dir|Counter|9\n`);
    assert.deepEqual(
      Deno.readFileSync(t.ctx.paths.registryFile),
      new Uint8Array([...latinRow, ...unparsable, ...retokened]),
    );
    // A changed row keeps the bytes of its own fields too.
    await updateRegistry(t.ctx.paths, (r) => moveToTop(setTokens(r, sessionId(1), 6), COUNTER));
    assert.deepEqual(
      Deno.readFileSync(t.ctx.paths.registryFile),
      new Uint8Array([
        ...retokened,
        ...latin1(`${sessionId(1)}|/home/u/caf\xe9|Caf\xe9 cr\xe8me|6\n`),
        ...unparsable,
      ]),
    );
  } finally {
    t.cleanup();
  }
});

Deno.test("a change that throws writes nothing", async () => {
  const t = createTestContext();
  try {
    const text = seed(t);
    await assert.rejects(
      updateRegistry(t.ctx.paths, () => {
        throw new Error("refused");
      }),
      /refused/,
    );
    assert.equal(Deno.readTextFileSync(t.ctx.paths.registryFile), text);
  } finally {
    t.cleanup();
  }
});

Deno.test("a missing registry reads as empty and is created by the first write", async () => {
  const t = createTestContext();
  try {
    assert.equal(mainSessions(readRegistry(t.ctx.paths)).length, 0);
    await updateRegistry(
      t.ctx.paths,
      (r) => addAtTop(r, { guid: COUNTER, dir: "/d", desc: "x", tokens: "" }),
    );
    assert.equal(Deno.readTextFileSync(t.ctx.paths.registryFile), `${COUNTER}|/d|x|\n`);
  } finally {
    t.cleanup();
  }
});

Deno.test("a held lock makes a writer wait, then warn and proceed after the timeout", async () => {
  const t = createTestContext();
  try {
    seed(t);
    let warned = "";
    await withFileLock(t.ctx.paths.lockFile, async () => {
      const started = Date.now();
      await updateRegistry(t.ctx.paths, (r) => setTokens(r, COUNTER, 1), {
        timeoutMs: 600,
        onTimeout: (path) => warned = path,
      });
      assert.ok(Date.now() - started >= 550, "the writer waited for the lock");
    });
    assert.equal(warned, t.ctx.paths.lockFile);
    assert.equal(findSession(readRegistry(t.ctx.paths), COUNTER)?.tokens, "1");
  } finally {
    t.cleanup();
  }
});

Deno.test("8 processes x 50 read-modify-writes through the lock lose no update", async () => {
  const t = createTestContext();
  try {
    seed(t);
    const children = Array.from({ length: 8 }, () => hammer(t, 50));
    const results = await Promise.all(children.map((child) => child.output()));
    for (const result of results) {
      assert.equal(result.code, 0, new TextDecoder().decode(result.stderr));
    }
    const registry = readRegistry(t.ctx.paths);
    assert.equal(findSession(registry, COUNTER)?.tokens, "400");
    assert.equal(mainSessions(registry).length, 61);
    assert.match(Deno.readTextFileSync(t.ctx.paths.registryFile), /malformed but precious/);
  } finally {
    t.cleanup();
  }
});

Deno.test("a writer SIGKILLed mid-loop leaves a completed state and no stale lock", async () => {
  const t = createTestContext();
  try {
    // A large registry makes each write long, so a kill is likely to land mid-write;
    // three rounds make a non-atomic writer all but certain to be caught.
    const text = seed(t, bigFiller(20_000));
    for (let round = 0; round < 3; round++) {
      const before = Number(findSession(readRegistry(t.ctx.paths), COUNTER)?.tokens);
      const child = hammer(t, 1_000_000);
      const deadline = Date.now() + 20_000;
      while (!(Number(findSession(readRegistry(t.ctx.paths), COUNTER)?.tokens) >= before + 5)) {
        if (Date.now() >= deadline) {
          child.kill("SIGKILL");
          const output = await child.output();
          assert.fail(
            `round ${round}: the writer never got going (exit ${output.code}): ` +
              new TextDecoder().decode(output.stderr),
          );
        }
        await new Promise((resolve) => setTimeout(resolve, 10 + 7 * round));
      }
      child.kill("SIGKILL");
      await child.status;

      const after = Deno.readTextFileSync(t.ctx.paths.registryFile);
      const count = findSession(parseRegistry(after), COUNTER)?.tokens ?? "";
      assert.match(count, /^\d+$/);
      const expected = serializeRegistry(setTokens(parseRegistry(text), COUNTER, count));
      assert.equal(after, expected, "the file is exactly some completed state");

      let timedOut = false;
      const started = Date.now();
      await updateRegistry(t.ctx.paths, (r) => r, {
        timeoutMs: 2_000,
        onTimeout: () => timedOut = true,
      });
      assert.equal(timedOut, false, "the dead writer's lock was released by the OS");
      assert.ok(Date.now() - started < 1_000);
    }
  } finally {
    t.cleanup();
  }
});

Deno.test("changeRegistry warns in yellow and still saves when the lock is held elsewhere", async () => {
  const t = createTestContext();
  try {
    seed(t);
    const { changeRegistry } = await import("../lib/app/registry.ts");
    const holder = new Deno.Command(Deno.execPath(), {
      args: [
        "eval",
        `const f = Deno.openSync(${
          JSON.stringify(t.ctx.paths.lockFile)
        }, {read: true, write: true, create: true});
         f.lockSync(true); console.log("locked"); await new Promise((r) => setTimeout(r, 15000));`,
      ],
      stdout: "piped",
    }).spawn();
    const reader = holder.stdout.getReader();
    await reader.read();
    try {
      await changeRegistry(t.ctx, (r) => setTokens(r, COUNTER, 99));
    } finally {
      holder.kill("SIGKILL");
      reader.releaseLock();
      await holder.stdout.cancel();
      await holder.status;
    }
    assert.match(t.stderr(), /Could not lock sessions\.txt within 10 s/);
    assert.equal(findSession(readRegistry(t.ctx.paths), COUNTER)?.tokens, "99");
  } finally {
    t.cleanup();
  }
});

Deno.test("a UTF-8 BOM and U+FEFF in free-form lines survive a rewrite, byte for byte", async () => {
  const t = createTestContext();
  try {
    const utf8 = (text: string) => new TextEncoder().encode(text);
    const bom = [0xef, 0xbb, 0xbf];
    const other = utf8(`${sessionId(1)}|/p|Zero\uFEFFwidth name|\n`);
    const note = utf8("# note \uFEFF kept\n");
    const latin1 = Uint8Array.from("caf\xe9 line\n", (c) => c.charCodeAt(0));
    const counter = (tokens: number) => utf8(`${COUNTER}|/counter dir|Counter|${tokens}\n`);
    Deno.mkdirSync(t.ctx.paths.cmHome, { recursive: true });
    for (const extra of [[], [...latin1]]) {
      const file = (tokens: number) =>
        new Uint8Array([...bom, ...counter(tokens), ...other, ...note, ...extra]);
      Deno.writeFileSync(t.ctx.paths.registryFile, file(0));
      await updateRegistry(t.ctx.paths, (r) => setTokens(r, COUNTER, 4));
      assert.deepEqual(Deno.readFileSync(t.ctx.paths.registryFile), file(4));
    }
  } finally {
    t.cleanup();
  }
});

Deno.test("a writer stalled past the lock timeout does not write over the one that went ahead", async () => {
  const t = createTestContext();
  try {
    seed(t);
    const ready = `${t.ctx.paths.cmHome}/stalled-writer-read`;
    const stalled = new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "--allow-all",
        "--quiet",
        STALL,
        COUNTER,
        "Renamed by the stalled one",
        ready,
        "2500",
      ],
      env: { ...childBaseEnv(), ...t.env },
      clearEnv: true,
      stdout: "null",
      stderr: "piped",
    }).spawn();
    const deadline = Date.now() + 20_000;
    while (!pathExists(ready) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    assert.ok(pathExists(ready), "the stalled writer got the lock and read the registry");
    let timedOut = false;
    await updateRegistry(t.ctx.paths, (r) => renameSession(r, sessionId(1), "Renamed meanwhile"), {
      timeoutMs: 300,
      onTimeout: () => timedOut = true,
    });
    assert.ok(timedOut, "the second writer went ahead without the lock");
    const output = await stalled.output();
    assert.equal(output.code, 0, new TextDecoder().decode(output.stderr));
    const registry = readRegistry(t.ctx.paths);
    assert.equal(findSession(registry, sessionId(1))?.desc, "Renamed meanwhile");
    assert.equal(findSession(registry, COUNTER)?.desc, "Renamed by the stalled one");
    assert.equal(mainSessions(registry).length, 61);
    assert.match(Deno.readTextFileSync(t.ctx.paths.registryFile), /malformed but precious/);
  } finally {
    t.cleanup();
  }
});

Deno.test("a write re-applies its operation when the file changed after it was read", async () => {
  const t = createTestContext();
  try {
    seed(t);
    let calls = 0;
    await updateRegistry(t.ctx.paths, (r) => {
      calls++;
      // Another writer renames a row between this writer's read and its rename.
      if (calls === 1) {
        writeRegistryText(t.ctx.paths, serializeRegistry(renameSession(r, sessionId(2), "Other")));
      }
      return setTokens(r, COUNTER, 5);
    });
    assert.equal(calls, 2);
    const registry = readRegistry(t.ctx.paths);
    assert.equal(findSession(registry, sessionId(2))?.desc, "Other");
    assert.equal(findSession(registry, COUNTER)?.tokens, "5");
    const names = [...Deno.readDirSync(t.ctx.paths.cmHome)].map((e) => e.name).sort();
    assert.deepEqual(names, ["sessions.txt", "sessions.txt.lock", "sessions.txt.swap.lock"]);
  } finally {
    t.cleanup();
  }
});

Deno.test("writers that all timed out behind a stalled one lose no update (issue 30.2)", async () => {
  const t = createTestContext();
  try {
    // A large registry makes each write long, so two unlocked writers' compare and rename meet.
    seed(t, bigFiller(5_000));
    const ready = `${t.ctx.paths.cmHome}/stalled-writer-read`;
    const stalled = new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "--allow-all",
        "--quiet",
        STALL,
        COUNTER,
        "Renamed by the stalled one",
        ready,
        "4000",
      ],
      env: { ...childBaseEnv(), ...t.env },
      clearEnv: true,
      stdout: "null",
      stderr: "piped",
    }).spawn();
    const deadline = Date.now() + 20_000;
    while (!pathExists(ready) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    assert.ok(pathExists(ready), "the stalled writer got the lock and read the registry");
    // Eight writers, each past its lock timeout at once, each writing many times.
    const children = Array.from({ length: 8 }, () => hammerUnlocked(t, 15, 100));
    const results = await Promise.all([stalled, ...children].map((child) => child.output()));
    for (const result of results) {
      assert.equal(result.code, 0, new TextDecoder().decode(result.stderr));
    }
    const registry = readRegistry(t.ctx.paths);
    assert.equal(findSession(registry, COUNTER)?.tokens, "120", "every increment was kept");
    assert.equal(findSession(registry, COUNTER)?.desc, "Renamed by the stalled one");
    assert.equal(mainSessions(registry).length, 5_001);
    assert.match(Deno.readTextFileSync(t.ctx.paths.registryFile), /malformed but precious/);
  } finally {
    t.cleanup();
  }
});

function hammerUnlocked(
  t: ReturnType<typeof createTestContext>,
  count: number,
  timeoutMs: number,
): Deno.ChildProcess {
  return new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-all", "--quiet", HAMMER, COUNTER, String(count), String(timeoutMs)],
    env: { ...childBaseEnv(), ...t.env },
    clearEnv: true,
    stdout: "null",
    stderr: "piped",
  }).spawn();
}

import assert from "node:assert/strict";
import { join } from "node:path";
import { encodeProjectKey } from "../lib/core/project_key.ts";
import { resolveProjectDir } from "../lib/transcript/project_dir.ts";
import { TranscriptBuilder } from "../fixtures/transcripts/builder.ts";
import { finishedSession, keyDirOf, makeFolder, namedDir, save } from "./helpers/projects.ts";
import { createTestContext } from "./helpers/test_context.ts";

Deno.test("resolveProjectDir: a dotted folder maps to the dot-slug key dir", () => {
  const t = createTestContext();
  try {
    const cwd = makeFolder(t.home, "src/jack.neil/my.app");
    const dir = keyDirOf(t.ctx, cwd);
    assert.ok(!dir.slice(t.ctx.paths.projectsDir.length).includes("."), "dots become dashes");
    save(dir, finishedSession({ cwd }));
    assert.deepEqual(resolveProjectDir(t.ctx.paths, cwd, { os: t.ctx.os }), {
      dir,
      how: "computed",
    });
  } finally {
    t.cleanup();
  }
});

Deno.test("resolveProjectDir: a stale dot-preserving dir with newer sessions is ignored", () => {
  const t = createTestContext();
  try {
    const cwd = makeFolder(t.home, "src/my.app");
    const dir = keyDirOf(t.ctx, cwd);
    save(dir, finishedSession({ cwd, start: new Date("2026-11-01T10:00:00Z") }));
    const stale = namedDir(t.ctx, cwd.replace(/[^a-zA-Z0-9.]/g, "-"));
    assert.notEqual(stale, dir);
    save(stale, finishedSession({ cwd, start: new Date("2026-11-29T10:00:00Z") }));
    assert.equal(resolveProjectDir(t.ctx.paths, cwd, { os: t.ctx.os })?.dir, dir);
  } finally {
    t.cleanup();
  }
});

Deno.test("resolveProjectDir: a long path resolves to its hashed key dir", () => {
  const t = createTestContext();
  try {
    const cwd = makeFolder(
      t.home,
      Array.from({ length: 12 }, (_, i) => `segment-number-${i}`).join("/"),
    );
    const dir = keyDirOf(t.ctx, cwd);
    const name = dir.slice(t.ctx.paths.projectsDir.length + 1);
    assert.ok(cwd.length > 200 && name.length > 200 && /-[0-9a-z]+$/.test(name));
    save(dir, finishedSession({ cwd }));
    assert.equal(resolveProjectDir(t.ctx.paths, cwd, { os: t.ctx.os })?.dir, dir);
  } finally {
    t.cleanup();
  }
});

Deno.test("resolveProjectDir: no key dir, so project dirs are matched on the recorded cwd", () => {
  const t = createTestContext();
  try {
    const cwd = makeFolder(
      t.home,
      Array.from({ length: 12 }, (_, i) => `deep-folder-${i}`).join("/"),
    );
    // Another build hashed the long path differently: only the recorded cwd can find it.
    const older = namedDir(t.ctx, `${encodeProjectKey(cwd).slice(0, 200)}-oldhash`);
    const oldest = namedDir(t.ctx, `${encodeProjectKey(cwd).slice(0, 200)}-olderhash`);
    namedDir(t.ctx, "-somewhere-else");
    save(older, finishedSession({ cwd, start: new Date("2026-11-20T10:00:00Z") }));
    save(oldest, finishedSession({ cwd, start: new Date("2026-10-20T10:00:00Z") }));
    save(namedDir(t.ctx, "-somewhere-else"), finishedSession({ cwd: "/somewhere/else" }));
    assert.deepEqual(resolveProjectDir(t.ctx.paths, cwd, { os: t.ctx.os }), {
      dir: older,
      how: "matched",
    });
  } finally {
    t.cleanup();
  }
});

Deno.test("resolveProjectDir: a key dir holding another folder's sessions is not ours", () => {
  const t = createTestContext();
  try {
    const cwd = makeFolder(t.home, "a/b.c");
    const other = makeFolder(t.home, "a/b-c");
    const dir = keyDirOf(t.ctx, cwd);
    assert.equal(dir, keyDirOf(t.ctx, other), "both folders share one key");
    save(dir, finishedSession({ cwd: other }));
    assert.equal(resolveProjectDir(t.ctx.paths, cwd, { os: t.ctx.os }), undefined);
    assert.equal(resolveProjectDir(t.ctx.paths, other, { os: t.ctx.os })?.dir, dir);
  } finally {
    t.cleanup();
  }
});

Deno.test("resolveProjectDir: nothing recorded gives undefined, even with an empty key dir", () => {
  const t = createTestContext();
  try {
    const cwd = makeFolder(t.home, "fresh");
    assert.equal(resolveProjectDir(t.ctx.paths, cwd, { os: t.ctx.os }), undefined);
    keyDirOf(t.ctx, cwd);
    assert.equal(resolveProjectDir(t.ctx.paths, cwd, { os: t.ctx.os }), undefined);
  } finally {
    t.cleanup();
  }
});

Deno.test("resolveProjectDir: a session that moved into a subfolder still belongs", () => {
  const t = createTestContext();
  try {
    const cwd = makeFolder(t.home, "proj");
    const dir = keyDirOf(t.ctx, cwd);
    const start = new TranscriptBuilder({ cwd }).prompt("hi").text("hello");
    const later = new TranscriptBuilder({ cwd: join(cwd, "sub"), sessionId: start.sessionId })
      .prompt("now in sub").text("ok");
    const text = start.toString() + later.toString();
    Deno.writeTextFileSync(join(dir, `${start.sessionId}.jsonl`), text);
    assert.equal(resolveProjectDir(t.ctx.paths, cwd, { os: t.ctx.os })?.how, "computed");
  } finally {
    t.cleanup();
  }
});

Deno.test("resolveProjectDir: Windows matches a recorded cwd in another case, Linux does not", () => {
  // The OS is a parameter, so Windows' case-insensitive folders are checked on every OS.
  const t = createTestContext();
  try {
    const cwd = makeFolder(t.home, "src/work");
    const dir = namedDir(t.ctx, "-recorded-elsewhere");
    save(dir, finishedSession({ cwd: cwd.toUpperCase() }));
    assert.deepEqual(resolveProjectDir(t.ctx.paths, cwd, { os: "windows" }), {
      dir,
      how: "matched",
    });
    // Windows' and macOS' own file systems fold case too: there the recorded real path is the cwd.
    if (Deno.build.os === "linux") {
      assert.equal(resolveProjectDir(t.ctx.paths, cwd, { os: "linux" }), undefined);
    }
  } finally {
    t.cleanup();
  }
});

import assert from "node:assert/strict";
import { createTestContext } from "./helpers/test_context.ts";
import { resolveSession, SessionRefError } from "../lib/app/session/resolve_session.ts";
import { ExitCode } from "../lib/core/errors.ts";

const A = "0f3a9c1e-1111-4000-8000-000000000001";
const B = "0f3a9c1e-2222-4000-8000-000000000002";
const C = "7c000000-3333-4000-8000-000000000003";
const D = "8d000000-4444-4000-8000-000000000004";

function world() {
  const t = createTestContext();
  Deno.mkdirSync(t.ctx.paths.cmHome, { recursive: true });
  Deno.writeTextFileSync(
    t.ctx.paths.registryFile,
    `${A}|/p/a|weekly notes|\n${B}|/p/b|fix billing bug|\n${C}|/p/c|weekly notes|\n` +
      `[archived]\n${D}|/p/d|old stuff|\n`,
  );
  return t;
}

function refusal(fn: () => unknown): SessionRefError {
  try {
    fn();
  } catch (error) {
    assert.ok(error instanceof SessionRefError, String(error));
    return error;
  }
  throw new Error("not refused");
}

Deno.test("resolveSession: a number, an id, an id prefix of 8+ and an exact name name one row", () => {
  const t = world();
  try {
    const { ctx } = t;
    assert.equal(resolveSession(ctx, "2").session.guid, B);
    assert.equal(resolveSession(ctx, "002").number, 2);
    assert.equal(resolveSession(ctx, B.toUpperCase()).session.guid, B);
    assert.equal(resolveSession(ctx, "7c000000").session.guid, C);
    assert.equal(resolveSession(ctx, "fix billing bug").number, 2);
    const archived = resolveSession(ctx, "old stuff");
    assert.deepEqual([archived.session.guid, archived.number, archived.archived], [D, 1, true]);
    assert.equal(resolveSession(ctx, "1", { numbers: "archived" }).session.guid, D);
  } finally {
    t.cleanup();
  }
});

Deno.test("resolveSession: an id whose first 8 characters are all digits is named by them", () => {
  const t = createTestContext();
  const digits = "12345678-5555-4000-8000-000000000005";
  try {
    Deno.mkdirSync(t.ctx.paths.cmHome, { recursive: true });
    Deno.writeTextFileSync(
      t.ctx.paths.registryFile,
      `${A}|/p/a|weekly notes|\n${digits}|/p/e|e|\n`,
    );
    assert.equal(resolveSession(t.ctx, "12345678").session.guid, digits);
    assert.equal(resolveSession(t.ctx, "12345678-55").session.guid, digits);
    // Digits that begin no id are a number, as before, with the number's answer.
    assert.equal(resolveSession(t.ctx, "00000001").session.guid, A);
    assert.equal(
      refusal(() => resolveSession(t.ctx, "87654321")).message,
      "no session #87654321: the list has 2",
    );
  } finally {
    t.cleanup();
  }
});

Deno.test("resolveSession: no such session and ambiguity are one plain line each", () => {
  const t = world();
  try {
    const { ctx } = t;
    const name = refusal(() => resolveSession(ctx, "weekly notes"));
    assert.equal(name.message, "that name is ambiguous: #1 and #3 (use the number)");
    assert.equal(name.exitCode, ExitCode.usage);
    const prefix = refusal(() => resolveSession(ctx, "0f3a9c1e"));
    assert.equal(prefix.message, "that id prefix is ambiguous: #1 and #2 (use the number)");
    // Fewer than 8 characters is never an id.
    assert.match(
      refusal(() => resolveSession(ctx, "7c00000")).message,
      /^no such session: 7c00000/,
    );
    const missing = refusal(() => resolveSession(ctx, "nothing here"));
    assert.equal(missing.message, "no such session: nothing here (see claudecm list)");
    assert.equal(missing.exitCode, ExitCode.failure);
    assert.equal(refusal(() => resolveSession(ctx, "9")).message, "no session #9: the list has 3");
    assert.equal(
      refusal(() => resolveSession(ctx, "2", { numbers: "archived" })).message,
      "no session #2: the archived list has 1",
    );
    assert.equal(
      refusal(() => resolveSession(ctx, "8d000001-0000-4000-8000-000000000000")).reason,
      "not-found",
    );
    assert.equal(refusal(() => resolveSession(ctx, "x", { notFoundCode: 3 })).exitCode, 3);
  } finally {
    t.cleanup();
  }
});

// Issue 33.3: "4. weekly notes", then another window's session ends and moves to #1.
Deno.test("a number this terminal was shown for another session asks in a terminal, refuses without", async () => {
  const { rememberShown } = await import("../lib/app/shown_list.ts");
  for (const [answers, interactive] of [[[""], true], [["n"], true], [[], false]] as const) {
    const t = createTestContext({ answers: [...answers], interactive });
    try {
      writeRows(t, [A, B, C]);
      rememberShown(t.ctx, [[1, A], [2, B], [3, C]]);
      // Another window: C ended and moved up.
      writeRows(t, [A, C, B]);
      assert.equal(resolveSession(t.ctx, "1").session.guid, A, "#1 was A, and still is");
      if (interactive && answers[0] === "") {
        const picked = resolveSession(t.ctx, "2", { verb: "resume" });
        assert.equal(picked.session.guid, B, "Enter takes the session that was shown");
        assert.match(t.stderr(), /#2 is now 'C' \(was 'B', now #3\)/);
        assert.deepEqual(t.questions, ["  Resume 'B'? [Y/n]: "]);
        continue;
      }
      const error = refusal(() => resolveSession(t.ctx, "2", { verb: "resume" }));
      assert.equal(error.reason, "moved");
      if (interactive) {
        assert.match(error.message, /^nothing done/);
      } else {
        assert.equal(
          error.message,
          "#2 is now 'C' (was 'B', now #3); name it by its name or id, or see claudecm list",
        );
      }
      // Names and ids never moved.
      assert.equal(resolveSession(t.ctx, "C").session.guid, C);
    } finally {
      t.cleanup();
    }
  }
});

Deno.test("the terminal's own change moves what it was shown along: no question", async () => {
  const { rememberShown } = await import("../lib/app/shown_list.ts");
  const { changeRegistry } = await import("../lib/app/registry.ts");
  const { moveToTop } = await import("../lib/core/registry_ops.ts");
  const t = createTestContext();
  try {
    writeRows(t, [A, B, C]);
    rememberShown(t.ctx, [[1, A], [2, B], [3, C]]);
    await changeRegistry(t.ctx, (r) => moveToTop(r, C));
    assert.equal(resolveSession(t.ctx, "1").session.guid, C);
  } finally {
    t.cleanup();
  }
});

function writeRows(t: ReturnType<typeof createTestContext>, guids: string[]): void {
  const names: Record<string, string> = { [A]: "A", [B]: "B", [C]: "C" };
  Deno.mkdirSync(t.ctx.paths.cmHome, { recursive: true });
  Deno.writeTextFileSync(
    t.ctx.paths.registryFile,
    guids.map((guid) => `${guid}|/p|${names[guid]}|\n`).join(""),
  );
}

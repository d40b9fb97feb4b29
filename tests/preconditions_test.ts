import assert from "node:assert/strict";
import { recheckThenAct } from "../lib/app/recheck.ts";
import { preconditionFailure, stampFile } from "../lib/core/preconditions.ts";
import { isSessionLive } from "../lib/platform/live_sessions.ts";
import { parseRegistry } from "../lib/core/registry.ts";
import { removeSession } from "../lib/core/registry_ops.ts";
import { sessionId, writeRegistryText, writeTranscript } from "./helpers/claude_home.ts";
import { createTestContext } from "./helpers/test_context.ts";

const ID = sessionId(1);

Deno.test("preconditionFailure: live first, then the row, then each file as shown", () => {
  const t = createTestContext();
  try {
    const { paths } = t.ctx;
    const dir = t.ctx.cwd();
    const path = writeTranscript(paths, dir, ID, { lines: [{ type: "user" }] });
    const stamp = stampFile(path)!;
    const listed = parseRegistry(`${ID}|${dir}|Work|\n`);
    const empty = parseRegistry("");
    const registered = { registered: true as const, dir };
    assert.equal(
      preconditionFailure({ paths, registry: listed, live: isSessionLive(paths, ID) }, {
        guid: ID,
        registration: registered,
      }),
      null,
    );
    assert.equal(
      preconditionFailure({ paths, registry: empty, live: isSessionLive(paths, ID) }, {
        guid: ID,
        registration: registered,
      }),
      "it is no longer in the session list",
    );
    assert.match(
      preconditionFailure({ paths, registry: listed, live: isSessionLive(paths, ID) }, {
        guid: ID,
        registration: { registered: true, dir: "/x" },
      })!,
      /another window changed its folder meanwhile/,
    );
    assert.match(
      preconditionFailure({ paths, registry: listed, live: isSessionLive(paths, ID) }, {
        guid: ID,
        registration: { registered: false },
      })!,
      /added to the session list meanwhile as 'Work'/,
    );
    // A line kept as written (a name with '|') still names its session: never "unregistered".
    const unparsed = parseRegistry(`${ID.toUpperCase()}|${dir}|api | auth work|\n`);
    assert.match(
      preconditionFailure({ paths, registry: unparsed, live: isSessionLive(paths, ID) }, {
        guid: ID,
        registration: { registered: false },
      })!,
      /a line of the session list that does not parse names it/,
    );
    assert.equal(
      preconditionFailure({ paths, registry: listed, live: isSessionLive(paths, ID) }, {
        guid: ID,
        files: [stamp],
      }),
      null,
    );
    Deno.writeTextFileSync(path, "{}\n", { append: true });
    assert.match(
      preconditionFailure({ paths, registry: listed, live: isSessionLive(paths, ID) }, {
        guid: ID,
        files: [stamp],
      })!,
      /changed since it was shown/,
    );
    Deno.mkdirSync(paths.sessionsDir, { recursive: true });
    Deno.writeTextFileSync(
      `${paths.sessionsDir}/${Deno.pid}.json`,
      JSON.stringify({ pid: Deno.pid, sessionId: ID, cwd: dir }),
    );
    assert.equal(
      preconditionFailure({ paths, registry: empty, live: isSessionLive(paths, ID) }, {
        guid: ID,
        files: [stamp],
      }),
      "it is open in a claude window now",
    );
  } finally {
    t.cleanup();
  }
});

Deno.test("recheckThenAct acts once under the lock with its registry change, or not at all", async () => {
  const t = createTestContext();
  try {
    const dir = t.ctx.cwd();
    writeRegistryText(t.ctx.paths, `${ID}|${dir}|Work|\n`);
    let acted = 0;
    const refused = await recheckThenAct(
      t.ctx,
      { guid: ID, registration: { registered: false } },
      () => ({ value: ++acted }),
    );
    assert.deepEqual(refused, {
      done: false,
      reason: "it was added to the session list meanwhile as 'Work'",
      acted: false,
    });
    assert.equal(acted, 0);
    const done = await recheckThenAct(
      t.ctx,
      { guid: ID, registration: { registered: true } },
      () => ({ value: ++acted, change: () => parseRegistry("") }),
    );
    assert.ok(done.done);
    assert.equal(done.value, 1);
    assert.equal(Deno.readTextFileSync(t.ctx.paths.registryFile), "");
    await assert.rejects(
      recheckThenAct(t.ctx, { guid: sessionId(2) }, () => {
        throw new Error("disk full");
      }),
      /disk full/,
    );
  } finally {
    t.cleanup();
  }
});

Deno.test("recheckThenAct: when the writer re-applies its change to a fresher registry, the act does not run again", async () => {
  const t = createTestContext();
  try {
    const dir = t.ctx.cwd();
    const other = sessionId(2);
    writeRegistryText(t.ctx.paths, `${ID}|${dir}|Work|\n${other}|${dir}|Other|\n`);
    let acted = 0;
    const step = await recheckThenAct(
      t.ctx,
      { guid: ID, registration: { registered: true } },
      () => {
        acted++;
        // A writer that went ahead without the lock removes the row first.
        Deno.writeTextFileSync(t.ctx.paths.registryFile, `${other}|${dir}|Other renamed|\n`);
        return { value: null, change: (r) => removeSession(r, ID, { ifPresent: true }) };
      },
    );
    assert.ok(step.done);
    assert.equal(acted, 1);
    assert.equal(
      Deno.readTextFileSync(t.ctx.paths.registryFile),
      `${other}|${dir}|Other renamed|\n`,
    );
  } finally {
    t.cleanup();
  }
});

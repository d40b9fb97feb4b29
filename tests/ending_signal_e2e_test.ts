import assert from "node:assert/strict";
import { createLaunchWorld, type LaunchWorld } from "./helpers/launch_world.ts";
import { claudecmCommand, claudecmInvocation } from "./helpers/run_cli.ts";
import { childBaseEnv } from "./helpers/child.ts";
import { pathExists } from "../lib/core/fs_checks.ts";

// A closed terminal sends SIGHUP to claudecm and claude alike; a SIGTERM may reach claudecm
// alone. Either way claudecm outlives claude to leave things right (a row written ahead for a
// session claude never saved goes again, as after Ctrl-C), asks nothing more, and ends as the
// signal would have ended it (129, 143).

/** claudecm running `args` in a session of its own (setsid), as a terminal's shell starts it. */
function startInOwnSession(world: LaunchWorld, args: string[], stdin: string) {
  const [program, leading] = claudecmInvocation(Deno.env.get("CLAUDECM_BIN"));
  const child = new Deno.Command("setsid", {
    args: [program, ...leading, ...args],
    env: { ...childBaseEnv(), NO_COLOR: "1", ...world.env },
    clearEnv: true,
    cwd: world.project,
    stdin: "piped",
    stdout: "null",
    stderr: "null",
  }).spawn();
  const writer = child.stdin.getWriter();
  void writer.write(new TextEncoder().encode(stdin)).then(() => writer.close());
  return child;
}

async function waitFor(what: string, ready: () => boolean): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!ready()) {
    assert.ok(Date.now() < deadline, `never ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function manifestWritten(world: LaunchWorld): boolean {
  try {
    return [...Deno.readDirSync(world.paths.sessionsDir)].some((e) => e.name.endsWith(".json"));
  } catch {
    return false;
  }
}

const CASES = [
  { signal: "SIGHUP", toGroup: true, code: 129, what: "a closed terminal" },
  { signal: "SIGTERM", toGroup: false, code: 143, what: "a SIGTERM to claudecm alone" },
] as const;

for (const { signal, toGroup, code, what } of CASES) {
  Deno.test({
    name: `${what} before the first message: the row written ahead goes, exit ${code}`,
    ignore: Deno.build.os === "windows",
    fn: async () => {
      const world = createLaunchWorld();
      try {
        // claude idles: nothing is typed, so it saves no transcript.
        world.claudeScenario({ steps: [{ sleepMs: 15_000 }] });
        const child = startInOwnSession(world, ["new"], "Never started\n");
        await waitFor("saw claude start", () => manifestWritten(world));
        await waitFor("wrote the row ahead", () => world.sessions().length === 1);
        const target = toGroup ? `-${child.pid}` : String(child.pid);
        new Deno.Command("kill", { args: [`-${signal.slice(3)}`, "--", target] }).outputSync();
        const status = await child.status;
        assert.equal(status.code, code);
        assert.deepEqual(world.sessions(), [], "no row for a session claude never saved");
        assert.ok(
          !pathExists(world.paths.registryFile) ||
            Deno.readTextFileSync(world.paths.registryFile).trim() === "",
        );
      } finally {
        world.cleanup();
      }
    },
  });
}

Deno.test({
  name: "a SIGTERM at a question asked right after claude exits ends claudecm at once (143)",
  ignore: Deno.build.os === "windows",
  fn: async () => {
    const world = createLaunchWorld();
    try {
      // No cmv: post-exit asks the session's name at once. stdin stays open, so it waits.
      world.env.CLAUDECM_CMV = `${world.dir}/no-cmv-here`;
      world.claudeScenario({ messages: ["first"] });
      const child = claudecmCommand(["new", "--", "--model", "x"], {
        env: world.env,
        cwd: world.project,
      }).spawn();
      // A launch's own lines go to stderr when stdout is not a terminal (issue 31).
      const reader = child.stderr.getReader();
      let shown = "";
      // A read that never returns must fail the test, not hang it.
      const stuck = setTimeout(() => child.kill("SIGKILL"), 20_000);
      while (!shown.includes("Describe this session")) {
        const chunk = await reader.read();
        if (chunk.done) break;
        shown += new TextDecoder().decode(chunk.value);
      }
      clearTimeout(stuck);
      assert.match(shown, /Describe this session/);
      Deno.kill(child.pid, "SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
      const status = await child.status;
      clearTimeout(timer);
      reader.releaseLock();
      await Promise.allSettled([child.stdout.cancel(), child.stderr.cancel(), child.stdin.close()]);
      assert.notEqual(status.signal, "SIGKILL", "the SIGTERM at the question was not heard");
      assert.equal(status.code === 143 || status.signal === "SIGTERM", true, String(status.code));
    } finally {
      world.cleanup();
    }
  },
});

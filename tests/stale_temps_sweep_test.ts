// Whatever writes a temporary file sweeps the ones a killed run of it left (issue 30 item 15):
// a restore killed while it copied, any writeFileAtomic writer, a streamed file.
import assert from "node:assert/strict";
import { join } from "node:path";
import { createLaunchWorld } from "./helpers/launch_world.ts";
import { finishedSession, save } from "./helpers/projects.ts";
import { sessionId } from "./helpers/claude_home.ts";
import { projectDirFor } from "../lib/core/paths.ts";
import { pathExists } from "../lib/core/fs_checks.ts";
import { writeFileAtomic } from "../lib/store/atomic_write.ts";
import { openStreamedFile } from "../lib/store/atomic_stream.ts";
import { renameClaudeJsonEntries } from "../lib/store/claude_json_store.ts";
import { writeRefusalIn } from "../lib/store/write_probe.ts";

const DEAD = "999999999";

Deno.test("restore sweeps what a killed restore left beside the files it puts back", async () => {
  const world = createLaunchWorld();
  try {
    const id = sessionId(0x41);
    const folder = projectDirFor(world.paths, world.project);
    Deno.mkdirSync(join(folder, id, "tool-results"), { recursive: true });
    save(folder, finishedSession({ sessionId: id, cwd: world.project }));
    Deno.writeTextFileSync(join(folder, id, "tool-results", "out.txt"), "tool output\n");
    Deno.writeTextFileSync(world.paths.registryFile, `${id}|${world.project}|Alpha|\n`);
    world.env.CLAUDECM_CMV = `${world.dir}/no-cmv-here`;
    // Copy mode: a restore copies, under `<file>.tmp-<pid>`, as it does across file systems.
    world.env.CLAUDECM_VAULT = "copy";
    assert.equal((await world.run(["vault", "sync"])).code, 0);
    Deno.removeSync(join(folder, `${id}.jsonl`));
    Deno.removeSync(join(folder, id), { recursive: true });
    // The restore before this one was killed part way through its copies.
    const left = [join(folder, `${id}.jsonl.tmp-${DEAD}`)];
    Deno.writeTextFileSync(left[0], "half a transcript");
    Deno.mkdirSync(join(folder, id, "tool-results"), { recursive: true });
    left.push(join(folder, id, "tool-results", `out.txt.tmp-${DEAD}`));
    Deno.writeTextFileSync(left[1], "half an output");
    const restored = await world.run(["restore", "1"]);
    assert.equal(restored.code, 0, restored.stderr);
    for (const path of left) assert.equal(pathExists(path), false, `${path} swept`);
    assert.ok(pathExists(join(folder, `${id}.jsonl`)));
  } finally {
    world.cleanup();
  }
});

Deno.test("writeFileAtomic and a streamed file sweep their own target's dead temporaries only", () => {
  const dir = Deno.makeTempDirSync({ prefix: "claudecm-sweep-" });
  try {
    const target = join(dir, "out.json");
    const ours = `${target}.tmp-${DEAD}`;
    const other = join(dir, `other.json.tmp-${DEAD}`);
    for (const path of [ours, other]) Deno.writeTextFileSync(path, "left");
    writeFileAtomic(target, "{}\n");
    assert.equal(pathExists(ours), false, "the dead writer's temp of this file went");
    assert.equal(pathExists(other), true, "another file's temp is not this writer's");

    const streamed = join(dir, "page.html");
    Deno.writeTextFileSync(`${streamed}.tmp-${DEAD}`, "half a page");
    const file = openStreamedFile(streamed);
    file.write("<p>whole</p>");
    file.commit({ replace: true });
    assert.equal(pathExists(`${streamed}.tmp-${DEAD}`), false);
    assert.equal(Deno.readTextFileSync(streamed), "<p>whole</p>");
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("a rename in ~/.claude.json sweeps the copy a killed move left beside it", () => {
  const dir = Deno.makeTempDirSync({ prefix: "claudecm-sweep-" });
  try {
    const path = join(dir, ".claude.json");
    Deno.writeTextFileSync(path, '{"projects": {"/old": {"x": 1}}}\n');
    const left = `${path}.claudecm-${DEAD}`;
    const claudes = `${path}.tmp.${DEAD}.1700000000`;
    Deno.writeTextFileSync(left, "a whole copy of it");
    Deno.writeTextFileSync(claudes, "claude's own");
    assert.equal(renameClaudeJsonEntries(path, [{ from: "/old", to: "/new" }]).length, 1);
    assert.equal(pathExists(left), false, "the killed move's copy went");
    assert.equal(pathExists(claudes), true, "claude's own temporary name is not claudecm's");
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("the write probe sweeps the probe a killed run left; doctor names a killed history rewrite's copy", async () => {
  const world = createLaunchWorld();
  try {
    Deno.mkdirSync(world.paths.cmHome, { recursive: true });
    const probe = join(world.paths.cmHome, `.write-probe.tmp-${DEAD}`);
    Deno.writeTextFileSync(probe, "");
    assert.equal(writeRefusalIn(world.paths.cmHome), null);
    assert.equal(pathExists(probe), false, "the killed run's probe went with the next probe");
    const history = join(world.paths.claudeRoot, `history.jsonl.claudecm.tmp-${DEAD}`);
    Deno.mkdirSync(world.paths.claudeRoot, { recursive: true });
    Deno.writeTextFileSync(history, "a whole copy of the history\n");
    const doctor = await world.run(["doctor", "--json"]);
    assert.ok(doctor.stdout.includes(`history.jsonl.claudecm.tmp-${DEAD}`), doctor.stdout);
  } finally {
    world.cleanup();
  }
});

import assert from "node:assert/strict";
import { buildRecoveryMetaPrompt } from "../lib/core/recovery_prompt.ts";
import { rotateToOld } from "../lib/store/rotate.ts";

Deno.test("the recovery meta-prompt is the spec 11.7.1 template verbatim, with substitutions", () => {
  // The golden file was cut from the spec's template text with the same values put in.
  const golden = Deno.readTextFileSync(
    new URL("../fixtures/recovery-meta-prompt.golden.txt", import.meta.url),
  );
  const prompt = buildRecoveryMetaPrompt({
    dir: "/w/app",
    desc: "My app",
    memoryDir: "/h/.claude/projects/-w-app/memory",
    subagentsDir: "/h/.claude/projects/-w-app/G/subagents",
    subagentCount: 2,
    subagentLatest: "2026-03-01",
    tokensText: "155000 tokens",
    dateText: "2026-03-02",
  });
  assert.equal(prompt, golden);
  assert.deepEqual(prompt.split("\n").filter((line) => line.startsWith("-")), []);
});

Deno.test("rotation keeps every earlier version: .old is the newest, numbers go up with age", () => {
  const dir = Deno.makeTempDirSync();
  try {
    const file = `${dir}/recovery-prompt.md`;
    rotateToOld(file); // nothing to rotate
    assert.deepEqual([...Deno.readDirSync(dir)], []);
    for (const version of ["v1", "v2", "v3", "v4"]) {
      rotateToOld(file);
      Deno.writeTextFileSync(file, version);
    }
    // A gap and a stray name are left alone, never overwritten.
    Deno.writeTextFileSync(`${file}.old1`, "stray");
    rotateToOld(file);
    const read = (suffix: string) => Deno.readTextFileSync(`${file}${suffix}`);
    assert.deepEqual(
      [".old", ".old2", ".old3", ".old4", ".old1"].map(read),
      ["v4", "v3", "v2", "v1", "stray"],
    );
    assert.ok(![...Deno.readDirSync(dir)].some((e) => e.name === "recovery-prompt.md"));
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

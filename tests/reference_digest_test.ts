/**
 * bench/reference_digest.py, the Python baseline bench/digest_reference.ts
 * times recover's digest against, must keep running and keep describing the
 * same working state, or the ratio the bench prints means nothing. Skipped
 * where there is no python3.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { collectDigest } from "../lib/transcript/digest.ts";
import { renderDigest } from "../lib/transcript/digest_render.ts";
import { TranscriptBuilder } from "../fixtures/transcripts/builder.ts";

const REFERENCE = fileURLToPath(new URL("../bench/reference_digest.py", import.meta.url));
const FIXTURES = fileURLToPath(new URL("../fixtures/transcripts/", import.meta.url));

function python3Works(): boolean {
  try {
    const output = new Deno.Command("python3", { args: ["--version"] }).outputSync();
    return output.success && /^Python 3\./.test(new TextDecoder().decode(output.stdout));
  } catch {
    return false;
  }
}

const ignore = !python3Works();

function reference(...args: string[]): { code: number; stdout: string; stderr: string } {
  const output = new Deno.Command("python3", { args: [REFERENCE, ...args] }).outputSync();
  const decoder = new TextDecoder();
  return {
    code: output.code,
    stdout: decoder.decode(output.stdout),
    stderr: decoder.decode(output.stderr),
  };
}

/** claudecm's digest of `path`, uncut, as the reference prints it. */
function claudecmDigest(path: string): string {
  const id = path.replace(/^.*[\\/]/, "").replace(/\.jsonl$/, "");
  return renderDigest(collectDigest(path, id), Number.MAX_SAFE_INTEGER).text;
}

Deno.test({
  name: "the reference Python digest matches claudecm's on the reference transcripts",
  ignore,
  fn() {
    const paths = [join(FIXTURES, "example-session.jsonl")];
    for (const entry of Deno.readDirSync(join(FIXTURES, "real-claude"))) {
      paths.push(join(FIXTURES, "real-claude", entry.name));
    }
    for (const path of paths) {
      const run = reference(path);
      assert.equal(run.code, 0, run.stderr);
      assert.equal(run.stdout, claudecmDigest(path), path);
    }
  },
});

Deno.test({
  name: "the reference Python digest of a long crashed transcript: corrupt line, half-written end",
  ignore,
  fn() {
    const dir = Deno.makeTempDirSync({ prefix: "claudecm-reference-" });
    try {
      const b = new TranscriptBuilder({ cwd: "/home/alice/src/app" });
      // More asks and calls than the digest keeps: both keep the same last ones.
      for (let i = 0; i < 12; i++) {
        b.prompt(`step ${i}`).tool("Bash", { command: `make ${i}` }, "ok");
      }
      b.prompt("migrate the schema")
        .tool(
          "Edit",
          { file_path: "/home/alice/src/app/db.ts", old_string: "a", new_string: "b" },
          "ok",
        )
        .raw("{not json")
        .toolUse("Bash", { command: "npm run migrate" });
      const path = join(dir, `${b.sessionId}.jsonl`);
      Deno.writeTextFileSync(path, `${b.toString()}{"type":"user","mess`);
      const run = reference(path);
      assert.equal(run.code, 0, run.stderr);
      assert.equal(run.stdout, claudecmDigest(path));
      assert.match(run.stdout, /1 corrupt line \(line \d+\) skipped/);
      assert.match(run.stdout, /half-written/);
      assert.match(run.stdout, /work was in progress on Bash: npm run migrate/);
    } finally {
      Deno.removeSync(dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "the reference Python digest fails with one line on a missing file or no argument",
  ignore,
  fn() {
    const missing = reference("/nonexistent/session.jsonl");
    assert.equal(missing.code, 1);
    assert.match(
      missing.stderr,
      /^reference_digest\.py: cannot read \/nonexistent\/session\.jsonl/,
    );
    assert.doesNotMatch(missing.stderr, /Traceback/);
    const usage = reference();
    assert.notEqual(usage.code, 0);
    assert.match(usage.stderr, /usage: reference_digest\.py TRANSCRIPT\.jsonl/);
  },
});

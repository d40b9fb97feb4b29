/**
 * bench/reference_export.py, the Python baseline bench/export.ts times
 * `export --format html` against, must keep running and keep doing the work
 * it stands for (parse every line, escape every message string), or the
 * ratio the bench prints means nothing. Skipped where there is no python3.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { HOSTILE, writeExportFixture } from "./helpers/export_fixture.ts";

const REFERENCE = fileURLToPath(new URL("../bench/reference_export.py", import.meta.url));

function python3Works(): boolean {
  try {
    return new Deno.Command("python3", { args: ["--version"] }).outputSync().success;
  } catch {
    return false;
  }
}

Deno.test({
  name: "reference_export.py escapes every message string and reports its time and memory",
  ignore: !python3Works(),
  fn: () => {
    const dir = Deno.makeTempDirSync({ prefix: "claudecm-reference-export-" });
    try {
      const { transcript } = writeExportFixture(dir, { cwd: "/home/alice/app" });
      const out = join(dir, "out.html");
      const output = new Deno.Command("python3", { args: [REFERENCE, transcript, out] })
        .outputSync();
      assert.ok(output.success, new TextDecoder().decode(output.stderr));
      const report = JSON.parse(new TextDecoder().decode(output.stdout));
      assert.ok(report.ms >= 0 && report.peakRssMiB > 0);
      const html = Deno.readTextFileSync(out);
      assert.ok(!html.includes("<script"), "escaped");
      assert.ok(html.includes("&lt;script&gt;"));
      assert.ok(html.includes("SUBAGENT-PROMPT") && HOSTILE.output.includes("PWNED"));
    } finally {
      Deno.removeSync(dir, { recursive: true });
    }
  },
});

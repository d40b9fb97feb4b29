/**
 * The export benchmark. Generates a 30 MB transcript in a temporary dir, then
 * prints, in one run, the HTML export of it (reader, views, escaping, the
 * streamed file) next to bench/reference_export.py, the minimal Python
 * script that JSON-parses every line and HTML-escapes every message string,
 * each in its own process (so its peak memory is its own), in alternated
 * rounds; the fastest round of each is compared.
 *
 * Targets (issue 35): export <= 2x the Python script, peak RSS < 300 MiB.
 *
 * Usage: deno run -A bench/export.ts [--size 30MB] [--rounds 3] [--keep]
 *
 * @module
 */

import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { exportSession } from "../lib/app/export/export_session.ts";
import { htmlView } from "../lib/app/export/html_view.ts";
import { openStreamedFile } from "../lib/store/atomic_stream.ts";
import { visibleText } from "../lib/core/safe_text.ts";
import { listSubagents, readExportFacts } from "../lib/transcript/export_facts.ts";
import { generateTranscript, parseSize } from "../scripts/gen_transcript.ts";
import { peakRssMiB, rssMiB, runChild } from "./measure.ts";

const SELF = fileURLToPath(import.meta.url);
const REFERENCE = fileURLToPath(new URL("./reference_export.py", import.meta.url));

interface Pass {
  ms: number;
  peakRssMiB: number;
}

/** In a child process: export `source` as HTML to `target` once; prints the time and peak RSS. */
function child(source: string, target: string): void {
  const start = performance.now();
  const facts = readExportFacts(source);
  const file = openStreamedFile(target);
  exportSession(source, htmlView((text) => file.write(visibleText(text))), {
    header: {
      title: facts.customTitle ?? "bench",
      sessionId: "bench",
      folder: facts.cwd,
      source: "bench",
    },
    subagents: listSubagents(join(source, "..", "bench"), join),
  });
  file.commit({ replace: true });
  const ms = performance.now() - start;
  console.log(JSON.stringify({ ms, peakRssMiB: peakRssMiB(rssMiB()).peak }));
}

async function python(source: string, target: string): Promise<Pass> {
  const output = await new Deno.Command("python3", {
    args: [REFERENCE, source, target],
    stdout: "piped",
    stderr: "inherit",
  }).output();
  if (!output.success) throw new Error("reference_export.py failed");
  return JSON.parse(new TextDecoder().decode(output.stdout));
}

async function main(): Promise<void> {
  const args = parseArgs({
    args: Deno.args,
    options: {
      size: { type: "string", default: "30MB" },
      rounds: { type: "string", default: "3" },
      keep: { type: "boolean", default: false },
    },
  });
  const dir = Deno.makeTempDirSync({ prefix: "claudecm-bench-export-" });
  try {
    const source = join(dir, "session.jsonl");
    generateTranscript(source, { bytes: parseSize(args.values.size!) });
    const size = Deno.statSync(source).size;
    const ours: Pass[] = [];
    const theirs: Pass[] = [];
    for (let round = 0; round < Number(args.values.rounds); round++) {
      ours.push(await runChild<Pass>(SELF, ["--child", source, join(dir, "ours.html")]));
      theirs.push(await python(source, join(dir, "python.html")));
    }
    const best = (passes: Pass[]) => Math.min(...passes.map((pass) => pass.ms));
    const peak = (passes: Pass[]) => Math.max(...passes.map((pass) => pass.peakRssMiB));
    const ratio = best(ours) / best(theirs);
    const mb = size / 1e6;
    console.log(`export --format html of a ${mb.toFixed(1)} MB transcript`);
    console.log(
      `  claudecm: ${best(ours).toFixed(0)} ms (${(mb / best(ours) * 1000).toFixed(0)} MB/s), ` +
        `peak RSS ${peak(ours).toFixed(0)} MiB, output ${
          (Deno.statSync(join(dir, "ours.html")).size / 1e6).toFixed(1)
        } MB`,
    );
    console.log(
      `  python3 reference_export.py: ${best(theirs).toFixed(0)} ms, peak RSS ${
        peak(theirs).toFixed(0)
      } MiB`,
    );
    console.log(
      `  ratio ${ratio.toFixed(2)}x (target <= 2x): ${ratio <= 2 ? "met" : "MISSED"}; ` +
        `peak RSS target < 300 MiB: ${peak(ours) < 300 ? "met" : "MISSED"}`,
    );
  } finally {
    if (args.values.keep) console.log(`kept ${dir}`);
    else Deno.removeSync(dir, { recursive: true });
  }
}

if (Deno.args[0] === "--child") child(Deno.args[1], Deno.args[2]);
else await main();

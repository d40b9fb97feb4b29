/**
 * The rescue benchmark. Generates, in a temporary Claude root, a tree of
 * transcripts (300 by default, 1 GB in all): 10 died of overflow, 10 more hit
 * the limit mid-file and compacted and went on (grep finds those too, the scan
 * must not), the rest ended normally. Then prints, in one run:
 *
 * - the scan (`scanDeadSessions`, what `rescue` does before anyone picks),
 *   best of 3, each in its own process with its peak RSS, next to
 *   `grep -rlE` for the same three strings over the same tree;
 * - the extraction of the dead sessions (one streaming pass each).
 *
 * Target: scan within 2x of grep's time; peak RSS bounded (it reads at most a
 * few tails' worth at a time, whatever the tree's size).
 *
 * Usage: deno run -A bench/rescue.ts [--files 300] [--total 1GB] [--dead 10] [--keep]
 *
 * @module
 */

import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { TranscriptBuilder } from "../fixtures/transcripts/builder.ts";
import { DEATH_STRINGS } from "../lib/transcript/death.ts";
import { generateTranscript, parseSize } from "../scripts/gen_transcript.ts";
import { runChild } from "./measure.ts";

const CHILD = fileURLToPath(new URL("./rescue_child.ts", import.meta.url));
const ITERATIONS = 3;

interface ChildResult {
  ms: number[];
  result: number;
  peakRssMiB: number;
  exact: boolean;
}

function child(mode: string, root: string): Promise<ChildResult> {
  return runChild(CHILD, [mode, root, String(ITERATIONS)]);
}

async function grep(projects: string): Promise<{ ms: number[]; files: number }> {
  const ms: number[] = [];
  let files = 0;
  const pattern = DEATH_STRINGS.join("|");
  for (let i = 0; i < ITERATIONS; i++) {
    const start = performance.now();
    const output = await new Deno.Command("grep", {
      args: ["-rlE", "--include=*.jsonl", pattern, projects],
      stdout: "piped",
    }).output();
    ms.push(performance.now() - start);
    files = new TextDecoder().decode(output.stdout).split("\n").filter((l) => l !== "").length;
  }
  return { ms, files };
}

/** Lay out `files` transcripts over 10 project dirs; returns the projects dir. */
function buildTree(root: string, files: number, total: number, dead: number): string {
  const projects = join(root, "projects");
  const base = join(root, "base.jsonl");
  const cwd = "/home/alice/HQ/repos/private/acme-api";
  generateTranscript(base, { bytes: Math.floor(total / files), cwd, seed: 11 });
  const start = new Date(Date.now() - 3_600_000);
  const step = Math.max(1, Math.floor(files / dead));
  for (let i = 0; i < files; i++) {
    const slot = Math.floor(i / step);
    const dir = join(projects, `-home-alice-HQ-repos-private-project-${i % 10}`);
    Deno.mkdirSync(dir, { recursive: true });
    const id = crypto.randomUUID();
    const path = join(dir, `${id}.jsonl`);
    Deno.copyFileSync(base, path);
    const tail = new TranscriptBuilder({ cwd, sessionId: id, start }).prompt(`task ${i}`);
    if (i % step === 0 && slot < dead) {
      tail.apiError("Prompt is too long").prompt("continue").apiError("Prompt is too long");
    } else if (i % step === 1 && slot < dead) {
      tail.apiError("Prompt is too long").compact("Summary: so far so good")
        .prompt("go on").text(`Finished task ${i}.`).turnEnd();
    } else {
      tail.text(`Finished task ${i}.`).turnEnd();
    }
    tail.metadata({ lastPrompt: `task ${i}`, aiTitle: `Task ${i}` });
    Deno.writeTextFileSync(path, tail.toString(), { append: true });
  }
  Deno.removeSync(base);
  return projects;
}

const fmt = (value: number, digits = 0) => value.toFixed(digits);
const best = (ms: number[]) => Math.min(...ms);

async function main(): Promise<void> {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      files: { type: "string", default: "300" },
      total: { type: "string", default: "1GB" },
      dead: { type: "string", default: "10" },
      keep: { type: "boolean", default: false },
    },
  });
  const root = Deno.makeTempDirSync({ prefix: "claudecm-rescue-bench-" });
  try {
    const files = Number(values.files);
    let started = performance.now();
    const projects = buildTree(root, files, parseSize(values.total), Number(values.dead));
    let bytes = 0;
    for (const dir of Deno.readDirSync(projects)) {
      for (const file of Deno.readDirSync(join(projects, dir.name))) {
        bytes += Deno.statSync(join(projects, dir.name, file.name)).size;
      }
    }
    console.log(
      `generated ${files} transcripts, ${fmt(bytes / 1e9, 2)} GB, in ${
        fmt(performance.now() - started)
      } ms`,
    );
    started = performance.now();
    const grepRun = await grep(projects);
    const scan = await child("scan", root);
    const extract = await child("extract", root);
    const idle = await child("idle", root);
    console.log(`\nDead-session scan over ${files} transcripts (best of ${ITERATIONS})`);
    console.log("  pass                          time   x grep   found   peak RSS");
    const row = (name: string, ms: number, found: number, rss: string) =>
      console.log(
        `  ${name.padEnd(28)}${fmt(ms).padStart(6)} ms${
          fmt(ms / best(grepRun.ms), 3).padStart(8)
        }x` +
          `${String(found).padStart(8)}${rss.padStart(11)}`,
      );
    row("grep -rlE (3 strings)", best(grepRun.ms), grepRun.files, "-");
    row(
      "rescue scan (tails only)",
      best(scan.ms),
      scan.result,
      `${fmt(scan.peakRssMiB)} MiB${scan.exact ? "" : "~"}`,
    );
    row(
      "extract the dead (full pass)",
      best(extract.ms),
      extract.result,
      `${fmt(extract.peakRssMiB)} MiB${extract.exact ? "" : "~"}`,
    );
    console.log(`  (the Deno runtime alone: ${fmt(idle.peakRssMiB)} MiB)`);
    console.log(
      `\ngrep also lists the ${
        grepRun.files - scan.result
      } sessions that hit the limit and went on;` +
        " the scan does not.",
    );
    const ratio = best(scan.ms) / best(grepRun.ms);
    console.log(
      `target: scan within 2x of grep: ${ratio <= 2 ? "met" : "MISSED"} (${fmt(ratio, 3)}x)`,
    );
  } finally {
    if (values.keep) console.log(`kept ${root}`);
    else Deno.removeSync(root, { recursive: true });
  }
}

if (import.meta.main) await main();

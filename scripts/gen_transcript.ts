/**
 * Generate a realistic synthetic Claude Code transcript of any size, for
 * benchmarks and manual testing. Turns follow the mix of a heavy coding
 * session: prompts with attachments, assistant text, Read/Bash/Edit/Write/Grep
 * calls whose results (with their `toolUseResult` copies) carry most of the
 * bytes, TodoWrite updates, file-history snapshots, turn ends, and the
 * metadata block re-appended after every turn. Output is streamed to disk,
 * so memory stays flat whatever the size; the same seed gives the same file.
 *
 * Usage: deno run -A scripts/gen_transcript.ts --out FILE [--size 100MB]
 *          [--cwd /home/alice/src/app] [--seed 1] [--session-id UUID] [--start ISO]
 *
 * @module
 */

import { parseArgs } from "node:util";
import { TranscriptBuilder } from "../fixtures/transcripts/builder.ts";

/** Options for {@linkcode generateTranscript}. */
export interface GenerateOptions {
  /** Approximate size in bytes; the file ends after the first turn that reaches it. */
  bytes: number;
  cwd?: string;
  seed?: number;
  sessionId?: string;
  /** Time of the first line. */
  start?: Date;
  /** Leave the last turn cut off mid-tool-call, as a crash would. */
  crashed?: boolean;
}

const WORDS = ("the a session transcript parser budget digest line buffer stream file test " +
  "error value result config option module function return const let await async import " +
  "export type interface class json path folder project branch commit merge fix add remove " +
  "update refactor rename check lint format build deploy cache index query schema migrate " +
  "user request response handler route token limit retry timeout café naïve 数据 ✓")
  .split(" ");

/** Write a transcript of about `options.bytes` bytes to `path`; returns its session id. */
export function generateTranscript(path: string, options: GenerateOptions): string {
  const random = mulberry32(options.seed ?? 1);
  const pick = <T>(items: T[]): T => items[Math.floor(random() * items.length)];
  const between = (low: number, high: number) => low + Math.floor(random() * (high - low));
  const words = (count: number) => Array.from({ length: count }, () => pick(WORDS)).join(" ");
  const code = (lines: number) =>
    Array.from(
      { length: lines },
      (_, i) =>
        `${"  ".repeat(i % 4)}const ${pick(WORDS)}_${i} = "${words(between(2, 9))}"; // ${
          words(3)
        }\\n`,
    )
      .join("\n");
  const cwd = options.cwd ?? "/home/alice/src/app";
  const files = Array.from({ length: 40 }, (_, i) => `${cwd}/src/${pick(WORDS)}_${i}.ts`);
  const builder = new TranscriptBuilder({
    cwd,
    sessionId: options.sessionId,
    start: options.start ?? new Date("2026-11-01T09:00:00Z"),
    stepMs: 900,
  });
  const file = Deno.openSync(path, { write: true, create: true, truncate: true });
  const encoder = new TextEncoder();
  let written = 0;
  const flush = () => {
    const text = builder.lines.length > 0 ? `${builder.lines.splice(0).join("\n")}\n` : "";
    const bytes = encoder.encode(text);
    let offset = 0;
    while (offset < bytes.length) offset += file.writeSync(bytes.subarray(offset));
    written += bytes.length;
  };
  try {
    builder.metadata({ mode: "normal", permissionMode: "acceptEdits" });
    let turn = 0;
    while (written < options.bytes) {
      turn++;
      const prompt = `${words(between(8, 60))}? Also check ${pick(files)}.`;
      builder.prompt(prompt)
        .attachment("deferred_tools_delta", {
          addedNames: WORDS.slice(0, between(5, 30)),
          removedNames: [],
        })
        .text(words(between(20, 120)));
      const calls = between(2, 9);
      for (let call = 0; call < calls; call++) {
        const target = pick(files);
        const kind = random();
        if (kind < 0.0006) {
          // Now and then a command dumps megabytes (a log, a lockfile) into one line.
          builder.tool(
            "Bash",
            { command: `cat ${cwd}/logs/build.log` },
            code(between(10_000, 30_000)),
          );
        } else if (kind < 0.35) {
          const body = code(between(40, 600));
          builder.tool("Read", { file_path: target }, body);
        } else if (kind < 0.6) {
          builder.tool(
            "Bash",
            { command: `npm test -- ${pick(WORDS)}`, description: words(4) },
            code(between(5, 120)),
          );
        } else if (kind < 0.8) {
          const before = code(between(2, 12));
          const after = code(between(2, 14));
          builder.toolUse("Edit", { file_path: target, old_string: before, new_string: after });
          const toolUseResult = {
            filePath: target,
            oldString: before,
            newString: after,
            originalFile: code(between(40, 400)),
            structuredPatch: [{
              oldStart: 1,
              oldLines: 2,
              newStart: 1,
              newLines: 3,
              lines: [after],
            }],
          };
          builder.toolResult(builder.lastToolUseId, `The file ${target} has been updated.`, {
            toolUseResult,
          });
          builder.snapshot(
            files.slice(0, 1 + (turn % files.length)).map((f) => f.slice(cwd.length + 1)),
          );
        } else if (kind < 0.9) {
          builder.tool(
            "Write",
            { file_path: target, content: code(between(20, 300)) },
            `File created at ${target}`,
          );
        } else if (kind < 0.95) {
          builder.tool(
            "Grep",
            { pattern: pick(WORDS), path: `${cwd}/src` },
            files.slice(0, between(1, 30)).join("\n"),
          );
        } else {
          const todos = Array.from({ length: between(2, 7) }, (_, i) => ({
            content: words(between(3, 9)),
            status: i < 1 ? "completed" : i < 2 ? "in_progress" : "pending",
            activeForm: words(3),
          }));
          builder.tool("TodoWrite", { todos }, "Todos have been modified successfully.");
        }
      }
      builder.text(words(between(30, 250))).turnEnd()
        .metadata({
          lastPrompt: prompt,
          aiTitle: `Work on ${pick(WORDS)} ${pick(WORDS)}`,
          mode: "normal",
          permissionMode: "acceptEdits",
        });
      flush();
    }
    if (options.crashed) {
      builder.prompt("continue with the migration").toolUse("Bash", { command: "npm run migrate" });
      flush();
    }
  } finally {
    file.close();
  }
  return builder.sessionId;
}

/** A small, fast, seedable PRNG (mulberry32). */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `100MB`, `512KB`, `1GB` (decimal units) or a plain byte count. */
export function parseSize(text: string): number {
  const match = /^(\d+(?:\.\d+)?)\s*(B|KB|MB|GB)?$/i.exec(text.trim());
  if (!match) throw new Error(`not a size: ${text}`);
  const unit = { B: 1, KB: 1e3, MB: 1e6, GB: 1e9 }[(match[2] ?? "B").toUpperCase()]!;
  return Math.round(Number(match[1]) * unit);
}

if (import.meta.main) {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      out: { type: "string" },
      size: { type: "string", default: "10MB" },
      cwd: { type: "string" },
      seed: { type: "string", default: "1" },
      "session-id": { type: "string" },
      start: { type: "string" },
      crashed: { type: "boolean", default: false },
    },
  });
  if (!values.out) {
    console.error(
      "usage: gen_transcript.ts --out FILE [--size 100MB] [--cwd DIR] [--seed N] [--crashed]",
    );
    Deno.exit(2);
  }
  const id = generateTranscript(values.out, {
    bytes: parseSize(values.size),
    cwd: values.cwd,
    seed: Number(values.seed),
    sessionId: values["session-id"],
    start: values.start ? new Date(values.start) : undefined,
    crashed: values.crashed,
  });
  console.log(`${values.out}: ${Deno.statSync(values.out).size} bytes, session ${id}`);
}

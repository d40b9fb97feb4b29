/**
 * A history of transcripts for the find benchmark, made of real text: prose
 * from /usr/share/doc (Markdown, READMEs, gzipped changelogs), code from the
 * machine's Python and C sources, so the vocabulary is as large as a real
 * one (a small vocabulary hides the cost of common words and of ranking).
 * Sizes are skewed (a few large transcripts, many small), sessions spread
 * over two months, and words are planted with a known answer:
 *
 * - `rare`: one invented word in 4 sessions;
 * - `phrase`: two invented words side by side in 6 sessions, and `apart`:
 *   both words, not side by side, in 6 others;
 * - `deep`: an invented word in the middle of a 200 KB tool output in 3;
 * - `the` and `return` in every session.
 *
 * Usage: deno run -A scripts/gen_find_corpus.ts --home DIR [--total 200MB] [--files 300]
 *
 * @module
 */

import { parseArgs } from "node:util";
import { TranscriptBuilder } from "../fixtures/transcripts/builder.ts";
import { projectDirFor, resolvePaths } from "../lib/core/paths.ts";
import { mulberry32, parseSize } from "./gen_transcript.ts";

/** The planted words. */
export const PLANTED = {
  rare: "zyqnorthal",
  phrase: ["vextral", "quorbinth"],
  deep: "quasarbytex",
} as const;

/** Which sessions hold each planted word. */
export interface CorpusTruth {
  rare: string[];
  phrase: string[];
  apart: string[];
  deep: string[];
  all: string[];
}

/** What was generated. */
export interface Corpus {
  bytes: number;
  truth: CorpusTruth;
  /** Every transcript, largest first. */
  paths: string[];
  /** Distinct words in the text the corpus draws from. */
  vocabulary: number;
}

/** Options for {@linkcode generateFindCorpus}. */
export interface CorpusOptions {
  total: number;
  files: number;
  seed?: number;
  projects?: number;
}

interface TextPool {
  prose: string[];
  code: string[];
  vocabulary: number;
}

const SOURCES = [
  { root: "/usr/share/doc", kind: "prose", pattern: /(\.md|\.txt|README[^/]*|\.gz)$/i },
  { root: "/usr/lib/python3", kind: "code", pattern: /\.py$/ },
  { root: "/usr/lib/python3.11", kind: "code", pattern: /\.py$/ },
  { root: "/usr/include", kind: "code", pattern: /\.h$/ },
] as const;
const POOL_BYTES = 48 * 1024 * 1024;

/** Read the machine's text into paragraphs of prose and chunks of code. */
export async function loadTextPool(): Promise<TextPool> {
  const prose: string[] = [];
  const code: string[] = [];
  let bytes = 0;
  const words = new Set<string>();
  for (const source of SOURCES) {
    for (const path of walk(source.root, source.pattern)) {
      if (bytes > POOL_BYTES * (source.kind === "prose" ? 0.4 : 1)) break;
      let text: string;
      try {
        text = path.endsWith(".gz") ? await gunzip(path) : Deno.readTextFileSync(path);
      } catch {
        continue;
      }
      if (text.includes("\u0000")) continue;
      text = scrub(text);
      bytes += text.length;
      if (words.size < 2_000_000) {
        for (const word of text.match(/\p{L}+/gu) ?? []) words.add(word);
      }
      if (source.kind === "prose") {
        prose.push(...text.split(/\n\s*\n/).map((p) => p.trim()).filter((p) => p.length > 40));
      } else {
        const lines = text.split("\n");
        for (let at = 0; at < lines.length; at += 120) {
          code.push(lines.slice(at, at + 120).join("\n"));
        }
      }
    }
  }
  if (prose.length === 0 || code.length === 0) {
    throw new Error("no text found under /usr/share/doc, /usr/lib/python3* or /usr/include");
  }
  return { prose, code, vocabulary: words.size };
}

/** Write the corpus under `home`'s `.claude/projects`. */
export async function generateFindCorpus(home: string, options: CorpusOptions): Promise<Corpus> {
  const pool = await loadTextPool();
  const random = mulberry32(options.seed ?? 7);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
  const paths = resolvePaths((name) => name === "HOME" ? home : undefined, Deno.build.os);
  const projects = options.projects ?? 20;
  // Zipf-like sizes: the i-th largest file gets a share of 1/(i+1)^0.8 of the total.
  const shares = Array.from({ length: options.files }, (_, i) => 1 / Math.pow(i + 1, 0.8));
  const sum = shares.reduce((a, b) => a + b, 0);
  const truth: CorpusTruth = { rare: [], phrase: [], apart: [], deep: [], all: [] };
  const roles = plantedRoles(options.files, random);
  const now = Date.now();
  let bytes = 0;
  const written: string[] = [];
  for (let i = 0; i < options.files; i++) {
    const cwd = `/home/bench/project-${i % projects}`;
    const dir = projectDirFor(paths, cwd);
    Deno.mkdirSync(dir, { recursive: true });
    const start = new Date(now - (i * 61 % 60 + 1) * 86_400_000);
    const builder = new TranscriptBuilder({ cwd, start, stepMs: 1000 });
    const path = `${dir}/${builder.sessionId}.jsonl`;
    const target = Math.max(20_000, Math.round(options.total * shares[i] / sum));
    const file = Deno.openSync(path, { write: true, create: true, truncate: true });
    const encoder = new TextEncoder();
    let size = 0;
    const flush = () => {
      const data = encoder.encode(`${builder.lines.splice(0).join("\n")}\n`);
      let at = 0;
      while (at < data.length) at += file.writeSync(data.subarray(at));
      size += data.length;
    };
    const plant = roles.get(i) ?? [];
    builder.prompt(`Read the notes and return a summary. ${pick(pool.prose).slice(0, 400)}`);
    builder.text(`I will look at the code first. ${pick(pool.prose)}`);
    if (plant.includes("rare")) builder.text(`The ${PLANTED.rare} cache needs a rebuild.`);
    if (plant.includes("phrase")) {
      builder.prompt(`check the ${PLANTED.phrase[0]} ${PLANTED.phrase[1]} settings`);
    }
    if (plant.includes("apart")) {
      builder.text(`${PLANTED.phrase[0]} first, then the ${PLANTED.phrase[1]} later on`);
    }
    if (plant.includes("deep")) {
      const half = filler(pool, pick, 100_000);
      builder.tool("Bash", { command: "make check" }, `${half}\n${PLANTED.deep} FAILED\n${half}`);
    }
    flush();
    let turn = 0;
    while (size < target) {
      turn++;
      builder.prompt(pick(pool.prose).slice(0, 600)).text(pick(pool.prose));
      const calls = 1 + Math.floor(random() * 5);
      for (let c = 0; c < calls; c++) {
        const source = pick(pool.code);
        const name = `src/module_${Math.floor(random() * 500)}.py`;
        const kind = random();
        if (kind < 0.45) builder.tool("Read", { file_path: `${cwd}/${name}` }, source);
        else if (kind < 0.7) {
          builder.tool("Bash", { command: `pytest -q tests/test_${turn}.py` }, pick(pool.prose));
        } else if (kind < 0.9) {
          builder.tool("Edit", {
            file_path: `${cwd}/${name}`,
            old_string: source.slice(0, 300),
            new_string: pick(pool.code).slice(0, 300),
          }, `The file ${cwd}/${name} has been updated.`);
        } else builder.tool("Write", { file_path: `${cwd}/${name}`, content: source }, "Done.");
      }
      builder.text(pick(pool.prose)).turnEnd().metadata({
        aiTitle: pick(pool.prose).slice(0, 50).replace(/\s+/g, " "),
        lastPrompt: "continue",
      });
      flush();
    }
    file.close();
    bytes += size;
    written.push(path);
    truth.all.push(builder.sessionId);
    for (const role of plant) truth[role].push(builder.sessionId);
  }
  return { bytes, truth, paths: written, vocabulary: pool.vocabulary };
}

/** Which sessions get which planted word: spread over large and small transcripts. */
function plantedRoles(files: number, random: () => number): Map<number, (keyof CorpusTruth)[]> {
  const roles = new Map<number, (keyof CorpusTruth)[]>();
  const free = Array.from({ length: files }, (_, i) => i);
  const take = (role: keyof CorpusTruth, count: number) => {
    for (let n = 0; n < count && free.length > 0; n++) {
      const [at] = free.splice(Math.floor(random() * free.length), 1);
      roles.set(at, [...roles.get(at) ?? [], role]);
    }
  };
  take("rare", 4);
  take("phrase", 6);
  take("apart", 6);
  take("deep", 3);
  return roles;
}

function filler(pool: TextPool, pick: <T>(items: readonly T[]) => T, length: number): string {
  let text = "";
  while (text.length < length) text += `${pick(pool.code)}\n`;
  return text.slice(0, length);
}

/** Remove the planted words from borrowed text, so only the planted places hold them. */
function scrub(text: string): string {
  return text.replace(
    new RegExp(`${PLANTED.rare}|${PLANTED.phrase.join("|")}|${PLANTED.deep}`, "gi"),
    "",
  );
}

function* walk(root: string, pattern: RegExp): Generator<string> {
  let entries: Deno.DirEntry[];
  try {
    entries = [...Deno.readDirSync(root)].sort((a, b) => a.name < b.name ? -1 : 1);
  } catch {
    return;
  }
  for (const entry of entries) {
    const path = `${root}/${entry.name}`;
    if (entry.isDirectory) yield* walk(path, pattern);
    else if (entry.isFile && pattern.test(entry.name)) yield path;
  }
}

async function gunzip(path: string): Promise<string> {
  const stream = new Blob([Deno.readFileSync(path)]).stream()
    .pipeThrough(new DecompressionStream("gzip"));
  return await new Response(stream).text();
}

if (import.meta.main) {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      home: { type: "string" },
      total: { type: "string", default: "200MB" },
      files: { type: "string", default: "300" },
    },
  });
  if (!values.home) {
    console.error("usage: gen_find_corpus.ts --home DIR [--total 200MB] [--files 300]");
    Deno.exit(2);
  }
  const corpus = await generateFindCorpus(values.home, {
    total: parseSize(values.total),
    files: Number(values.files),
  });
  console.log(JSON.stringify({ bytes: corpus.bytes, vocabulary: corpus.vocabulary }));
}

/**
 * The find and list benchmark (issue 19's table, every row in one run).
 * Generates a history of real text (scripts/gen_find_corpus.ts: prose from
 * /usr/share/doc, Python and C sources; planted words with a known answer)
 * in a temporary HOME, then runs every case as a whole process
 * (`deno run --allow-all --quiet main.ts ...`, as a user starts claudecm),
 * interleaved: each round runs every case once, so a busy machine slows all
 * of them alike. Prints medians and minima and each row's ratio to its
 * reference (`claudecm --version`, a one-line script, a script doing list's
 * file I/O, `rg -l -F`), then checks the planted answers, with and without
 * the index. Rows marked "reference" time scripts that do only a row's
 * unavoidable work (bench/floor_find.ts, bench/floor_read.ts): a goal below
 * its floor's ratio cannot be met by any code on this machine.
 *
 * Usage: deno run -A bench/find.ts [--total 200MB] [--files 300] [--rounds 7] [--keep]
 * (issue 19 measured --total 587MB; the default is smaller to keep a run short).
 *
 * @module
 */

import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { claudecmEnv, median } from "./measure.ts";
import { seedRegistry } from "./startup_bench.ts";
import { type Corpus, generateFindCorpus, PLANTED } from "../scripts/gen_find_corpus.ts";
import { generateTranscript, parseSize } from "../scripts/gen_transcript.ts";

const MAIN = fileURLToPath(new URL("../main.ts", import.meta.url));
const FLOOR = fileURLToPath(new URL("./floor.ts", import.meta.url));
const FLOOR_LIST_IO = fileURLToPath(new URL("./floor_list_io.ts", import.meta.url));
const FLOOR_FIND = fileURLToPath(new URL("./floor_find.ts", import.meta.url));
const FLOOR_READ = fileURLToPath(new URL("./floor_read.ts", import.meta.url));
const RARE = PLANTED.rare;
const PHRASE = PLANTED.phrase.join(" ");

interface Run {
  ms: number;
  peakMiB: number | null;
  /** User + system CPU time, under /usr/bin/time. */
  cpuMs: number | null;
  stdout: string;
}

type Env = Record<string, string>;

/** Run one whole process; with `time`, under /usr/bin/time for its peak memory. */
async function run(command: string, args: string[], env: Env, time = false): Promise<Run> {
  const timed = time && hasTimeTool;
  const started = performance.now();
  const output = await new Deno.Command(timed ? "/usr/bin/time" : command, {
    args: timed ? ["-f", "%M %U %S", command, ...args] : args,
    env,
    clearEnv: true,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const ms = performance.now() - started;
  const stderr = new TextDecoder().decode(output.stderr);
  if (!output.success) throw new Error(`${command} ${args.join(" ")} failed: ${stderr}`);
  const [kb, user, system] = timed
    ? stderr.trim().split("\n").at(-1)!.split(" ").map(Number)
    : [NaN, NaN, NaN];
  return {
    ms,
    peakMiB: Number.isNaN(kb) ? null : kb / 1024,
    cpuMs: Number.isNaN(user + system) ? null : (user + system) * 1000,
    stdout: new TextDecoder().decode(output.stdout),
  };
}

const deno = (script: string, args: string[], env: Env, time = false) =>
  run(Deno.execPath(), ["run", "--allow-all", "--quiet", script, ...args], env, time);

let hasTimeTool = false;

function available(command: string, args: string[]): boolean {
  try {
    return new Deno.Command(command, { args, stdout: "null", stderr: "null" }).outputSync()
      .success;
  } catch {
    return false;
  }
}

function removeIndex(cmHome: string): void {
  for (const suffix of ["", "-wal", "-shm"]) {
    try {
      Deno.removeSync(join(cmHome, `find-index.db${suffix}`));
    } catch {
      // Absent.
    }
  }
}

function sessionsOf(run: Run): string[] {
  return (JSON.parse(run.stdout).results as { sessionId: string }[]).map((r) => r.sessionId)
    .sort();
}

interface Case {
  name: string;
  go: () => Promise<Run>;
  /** Before each timed run (not timed). */
  prepare?: () => void;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      total: { type: "string", default: "200MB" },
      files: { type: "string", default: "300" },
      rounds: { type: "string", default: "7" },
      keep: { type: "boolean", default: false },
    },
  });
  const rounds = Math.max(7, Number(values.rounds));
  hasTimeTool = available("/usr/bin/time", ["-f", "%M", "true"]);
  const hasRg = available("rg", ["--version"]);
  const root = Deno.makeTempDirSync({ prefix: "claudecm-find-bench-" });
  try {
    const home = join(root, "corpus");
    const listHome = join(root, "list");
    const emptyHome = join(root, "empty");
    for (const dir of [home, listHome, emptyHome]) Deno.mkdirSync(dir);
    const started = performance.now();
    const corpus = await generateFindCorpus(home, {
      total: parseSize(values.total),
      files: Number(values.files),
    });
    const env = claudecmEnv(home);
    const listEnv = claudecmEnv(listHome);
    const emptyEnv = claudecmEnv(emptyHome);
    seedRegistry(listEnv, listHome);
    const cmHome = join(home, ".claudecm");
    const projects = join(home, ".claude", "projects");
    const appendTo = corpus.paths[Math.floor(corpus.paths.length / 2)];
    const appendBytes = oneMegabyteFor(root, appendTo);
    console.log(
      `corpus: ${corpus.paths.length} transcripts, ${(corpus.bytes / 1e6).toFixed(0)} MB, ` +
        `${corpus.vocabulary} distinct words in its source text, largest ` +
        `${(Deno.statSync(corpus.paths[0]).size / 1e6).toFixed(1)} MB; generated in ` +
        `${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    const find = (...args: string[]) => () => deno(MAIN, ["find", "--json", ...args], env);
    const cases: Case[] = [
      {
        name: "build",
        prepare: () => removeIndex(cmHome),
        go: () => deno(MAIN, ["find", "--json", RARE], env, true),
      },
      { name: "version", go: () => deno(MAIN, ["--version"], env) },
      { name: "floor", go: () => deno(FLOOR, [], env) },
      { name: "rare", go: find(RARE) },
      { name: "phrase", go: find(PHRASE) },
      { name: "the", go: find("the") },
      { name: "return", go: find("return") },
      {
        name: "append",
        prepare: () => Deno.writeFileSync(appendTo, appendBytes, { append: true }),
        go: find(RARE),
      },
      { name: "deep", go: find("--tool-output", PLANTED.deep) },
      { name: "floorRare", go: () => deno(FLOOR_FIND, [RARE], env) },
      { name: "floorThe", go: () => deno(FLOOR_FIND, ["the"], env) },
      { name: "noIndex", go: find("--no-index", RARE) },
      { name: "floorRead", go: () => deno(FLOOR_READ, [], env) },
      ...(hasRg ? [{ name: "rg", go: () => run("rg", ["-l", "-F", RARE, projects], env) }] : []),
      { name: "list", go: () => deno(MAIN, ["list", "--json"], listEnv) },
      { name: "listIo", go: () => deno(FLOOR_LIST_IO, [], listEnv) },
      { name: "help", go: () => deno(MAIN, ["--help"], emptyEnv) },
      { name: "listEmpty", go: () => deno(MAIN, ["list", "--json"], emptyEnv) },
    ];
    // Warm-up: fills Deno's transpile cache and the page cache.
    for (const c of cases) {
      c.prepare?.();
      await c.go();
    }
    const times = new Map(cases.map((c) => [c.name, [] as number[]]));
    const peaks: number[] = [];
    const buildCpu: number[] = [];
    for (let round = 0; round < rounds; round++) {
      for (const c of cases) {
        c.prepare?.();
        const result = await c.go();
        times.get(c.name)!.push(result.ms);
        if (c.name === "build" && result.peakMiB !== null) peaks.push(result.peakMiB);
        if (c.name === "build" && result.cpuMs !== null) buildCpu.push(result.cpuMs);
      }
    }
    const indexBytes = Deno.statSync(join(cmHome, "find-index.db")).size;
    const exact = await checkAnswers(corpus, env);
    printTable({ times, peaks, buildCpu, corpus, indexBytes, rounds, hasRg, exact });
    if (values.keep) console.log(`\nkept ${root}`);
  } finally {
    if (!values.keep) Deno.removeSync(root, { recursive: true });
  }
}

/** 1 MB of complete transcript lines for the session of `path`. */
function oneMegabyteFor(root: string, path: string): Uint8Array {
  const scratch = join(root, "append.jsonl");
  const sessionId = path.slice(path.lastIndexOf("/") + 1, -".jsonl".length);
  generateTranscript(scratch, { bytes: 1_000_000, cwd: "/home/bench/appended", sessionId });
  const bytes = Deno.readFileSync(scratch);
  Deno.removeSync(scratch);
  return bytes;
}

interface Measured {
  times: Map<string, number[]>;
  peaks: number[];
  /** CPU time of each build: what the rate would be with a core to itself. */
  buildCpu: number[];
  corpus: Corpus;
  indexBytes: number;
  rounds: number;
  hasRg: boolean;
  /** Each planted answer's check, by name: exact with and without the index. */
  exact: Map<string, boolean>;
}

function printTable(m: Measured): void {
  const med = (name: string) => median(m.times.get(name)!);
  const min = (name: string) => Math.min(...m.times.get(name)!);
  const ratio = (name: string, reference: string) => ({
    median: med(name) / med(reference),
    min: min(name) / min(reference),
  });
  const rows: string[][] = [];
  const verdict = (ok: boolean) => ok ? "met" : "NOT MET";
  const ratioRow = (what: string, name: string, reference: string, goal: number) => {
    const r = ratio(name, reference);
    rows.push([
      what,
      `${med(name).toFixed(0)} / ${min(name).toFixed(0)} ms`,
      `${r.median.toFixed(2)}x / ${r.min.toFixed(2)}x`,
      `<= ${goal}x`,
      verdict(r.median <= goal),
    ]);
  };
  // What a goal is measured against: the same ratio for a script doing only the row's
  // unavoidable work (bench/floor_*.ts). A goal below its floor is out of reach of any code.
  const referenceRow = (what: string, name: string, reference: string) => {
    const r = ratio(name, reference);
    rows.push([
      what,
      `${med(name).toFixed(0)} / ${min(name).toFixed(0)} ms`,
      `${r.median.toFixed(2)}x / ${r.min.toFixed(2)}x`,
      "",
      "reference",
    ]);
  };
  const mb = m.corpus.bytes / 1e6;
  const rateMedian = mb / (med("build") / 1000);
  const rateMax = mb / (min("build") / 1000);
  const peak = m.peaks.length > 0 ? Math.max(...m.peaks) : null;
  const cpuRate = m.buildCpu.length > 0 ? (mb / (median(m.buildCpu) / 1000)).toFixed(0) : "?";
  rows.push([
    "first index build (whole process)",
    `${(med("build") / 1000).toFixed(1)} / ${(min("build") / 1000).toFixed(1)} s`,
    `${rateMedian.toFixed(0)} / ${rateMax.toFixed(0)} MB/s (CPU time: ${cpuRate} MB/s), ` +
    `peak ${peak?.toFixed(0) ?? "?"} MiB`,
    ">= 80 MB/s, <= 256 MiB",
    verdict(rateMedian >= 80 && (peak ?? 0) <= 256),
  ]);
  ratioRow(`rare word (${RARE})`, "rare", "version", 1.5);
  referenceRow("  (floor: the least a rare-word query reads and asks)", "floorRare", "version");
  ratioRow(`phrase ("${PHRASE}")`, "phrase", "version", 1.5);
  ratioRow("common word: the", "the", "version", 2.5);
  ratioRow("common word: return", "return", "version", 2.5);
  referenceRow("  (floor: the least a query for 'the' reads and asks)", "floorThe", "version");
  for (const word of ["the", "return"]) {
    rows.push([
      `  every session with "${word}"`,
      "",
      "",
      "all",
      m.exact.get(word) ? "met" : "NOT MET",
    ]);
  }
  ratioRow("append 1 MB to one transcript, then query", "append", "version", 2.0);
  rows.push([
    "--tool-output, a word deep in a 200 KB output",
    `${med("deep").toFixed(0)} / ${min("deep").toFixed(0)} ms`,
    `${ratio("deep", "version").median.toFixed(2)}x / ${ratio("deep", "version").min.toFixed(2)}x`,
    "found (3 of 3)",
    m.exact.get(DEEP_CHECK) ? "met" : "NOT MET",
  ]);
  if (m.hasRg) {
    ratioRow("find --no-index, rare word, vs rg -l -F", "noIndex", "rg", 2.0);
    referenceRow("  (floor: reading every transcript once, one thread)", "floorRead", "rg");
  } else rows.push(["find --no-index vs rg -l -F", "skipped", "rg not found", "", ""]);
  const size = m.indexBytes / m.corpus.bytes;
  rows.push([
    "index size",
    `${(m.indexBytes / 1e6).toFixed(1)} MB`,
    `${size.toFixed(2)}x the corpus`,
    "<= 0.6x",
    verdict(size <= 0.6),
  ]);
  ratioRow("list --json, 1,000 sessions, vs same-I/O script", "list", "listIo", 1.15);
  ratioRow("--help vs a one-line script", "help", "floor", 1.3);
  ratioRow("list --json, empty registry, vs one-line script", "listEmpty", "floor", 1.3);
  const load = Deno.loadavg()[0].toFixed(1);
  console.log(
    `\n${m.rounds} interleaved rounds, whole processes; medians / minima; ratios of medians / ` +
      `of minima; load average ${load} on ${navigator.hardwareConcurrency} CPUs (noisy: other ` +
      `work on the machine slows every case of a round alike, the verdict uses medians)`,
  );
  const widths = rows[0].map((_, col) => Math.max(...rows.map((row) => row[col].length)));
  for (const row of rows) console.log(row.map((cell, col) => cell.padEnd(widths[col])).join("  "));
  console.log(
    `references: --version ${med("version").toFixed(0)} / ${min("version").toFixed(0)} ms, ` +
      `one-line script ${med("floor").toFixed(0)} / ${min("floor").toFixed(0)} ms` +
      (m.hasRg ? `, rg -l -F ${med("rg").toFixed(0)} / ${min("rg").toFixed(0)} ms` : ""),
  );
}

const DEEP_CHECK = "deep in a tool output";

/** Every planted word must return exactly its sessions, with and without the index. */
async function checkAnswers(corpus: Corpus, env: Env): Promise<Map<string, boolean>> {
  const exactness = new Map<string, boolean>();
  const all = ["--limit", "100000"];
  const expect = (truth: string[]) => [...truth].sort();
  const checks: [string, string[], string[]][] = [
    ["rare word", [RARE], expect(corpus.truth.rare)],
    ["phrase", [PHRASE], expect(corpus.truth.phrase)],
    ["both words", [...PLANTED.phrase], expect([...corpus.truth.phrase, ...corpus.truth.apart])],
    [DEEP_CHECK, ["--tool-output", PLANTED.deep], expect(corpus.truth.deep)],
    ["the", ["the"], expect(corpus.truth.all)],
    ["return", ["return"], expect(corpus.truth.all)],
  ];
  console.log("\nplanted answers (sessions found / expected):");
  for (const [what, args, truth] of checks) {
    const line = [];
    exactness.set(what, true);
    for (const how of [[], ["--no-index"]]) {
      const found = sessionsOf(await deno(MAIN, ["find", "--json", ...all, ...how, ...args], env));
      const exact = found.length === truth.length && found.every((id, i) => id === truth[i]);
      if (!exact) exactness.set(what, false);
      line.push(
        `${how.length ? "--no-index" : "index"} ${found.length}/${truth.length} ` +
          (exact ? "exact" : "WRONG"),
      );
    }
    console.log(`  ${what.padEnd(22)} ${line.join(", ")}`);
  }
  return exactness;
}

if (import.meta.main) await main();

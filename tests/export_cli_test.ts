import assert from "node:assert/strict";
import { join } from "node:path";
import { writeRegistryText } from "./helpers/claude_home.ts";
import { HOSTILE, writeExportFixture } from "./helpers/export_fixture.ts";
import { keyDirOf, makeFolder } from "./helpers/projects.ts";
import { claudecmCommand, runClaudecm } from "./helpers/run_cli.ts";
import { waitUntil } from "./helpers/fakes.ts";
import { generateTranscript } from "../scripts/gen_transcript.ts";
import { createTestContext } from "./helpers/test_context.ts";
import { toolAvailable } from "./helpers/test_tools.ts";
import { ON_WINDOWS } from "./helpers/portable.ts";
import { treeState } from "./helpers/tree_state.ts";
import { vaultFolderFor } from "../lib/core/session_copies.ts";

/** A registered session with every block type, in claude's folder (or only in the vault). */
function world(options: { vaultOnly?: boolean } = {}) {
  const t = createTestContext();
  const cwd = makeFolder(t.home, "app");
  const folder = options.vaultOnly ? vaultFolderFor(t.ctx.paths, cwd) : keyDirOf(t.ctx, cwd);
  Deno.mkdirSync(folder, { recursive: true });
  const made = writeExportFixture(folder, { cwd });
  writeRegistryText(t.ctx.paths, `${made.sessionId}|${cwd}|Parser Work|120000\n`);
  const run = (args: string[]) => runClaudecm(["export", ...args], { env: t.env, cwd });
  return { t, cwd, ...made, run };
}

Deno.test("export N prints Markdown to stdout, says on stderr what it skipped, and writes nothing", async () => {
  const w = world();
  try {
    const before = treeState(w.t.home);
    const run = await w.run(["1"]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^# Parser Work\n/);
    assert.match(run.stdout, new RegExp(`- \\*\\*Session:\\*\\* ${w.sessionId}\n`));
    assert.match(
      run.stdout,
      /- \*\*Tokens:\*\* 18K tok in context at the end, 120K tok last measured/,
    );
    assert.match(run.stdout, /SUBAGENT-ANSWER/);
    assert.match(
      run.stderr,
      /^2 lines of the transcript could not be read and are not in the export\.$/m,
    );
    assert.deepEqual(treeState(w.t.home), before);
    // By id, an id's first 8 characters and saved name alike (the one resolver).
    for (const ref of [w.sessionId, w.sessionId.slice(0, 8), "Parser Work"]) {
      const again = await w.run([ref]);
      assert.equal(again.stdout, run.stdout);
    }
    // `-o -` is stdout, as for other tools: never a file named "-" where the user is.
    const dash = await w.run(["1", "-o", "-"]);
    assert.deepEqual([dash.code, dash.stdout], [0, run.stdout]);
    assert.deepEqual(treeState(w.t.home), before);
  } finally {
    w.t.cleanup();
  }
});

Deno.test("export -o writes the file whole, refuses to replace one unless --force, and --json reports it", async () => {
  const w = world();
  try {
    const out = join(w.t.home, "out.html");
    const first = await w.run(["1", "--format", "html", "-o", out]);
    assert.equal(first.code, 0, first.stderr);
    assert.match(
      first.stdout,
      /^Exported 9 turns and 1 subagent conversation of .* to .*out\.html \(\d+ KB\)\.$/m,
    );
    assert.match(Deno.readTextFileSync(out), /^<!DOCTYPE html>/);
    // A tool's escape sequences are shown, never written raw (cat or less of the file is safe).
    assert.ok(!Deno.readTextFileSync(out).includes("\x1b"));
    assert.match(Deno.readTextFileSync(out), /\^\[\[31mFAILED-IN-RED/);
    Deno.writeTextFileSync(out, "mine");
    const refused = await w.run(["1", "-o", out]);
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, /^claudecm: .*out\.html already exists; --force replaces it\n$/);
    assert.equal(Deno.readTextFileSync(out), "mine", "the file is untouched");
    const forced = await w.run(["1", "-o", out, "--force", "--json", "--redact"]);
    assert.equal(forced.code, 0, forced.stderr);
    const result = JSON.parse(forced.stdout);
    assert.equal(result.sessionId, w.sessionId);
    assert.equal(result.format, "md");
    assert.equal(result.output, out);
    assert.equal(result.bytes, Deno.statSync(out).size);
    assert.equal(result.source, "projects");
    assert.equal(result.skippedLines, 2);
    assert.equal(result.redacted, 9);
    assert.match(Deno.readTextFileSync(out), /^# Parser Work/);
    assert.deepEqual(
      [...Deno.readDirSync(w.t.home)].map((e) => e.name).filter((name) => name.includes(".tmp-")),
      [],
      "no temporary file is left",
    );
  } finally {
    w.t.cleanup();
  }
});

Deno.test("a session claude deleted exports from the vault, and says so", async () => {
  const w = world({ vaultOnly: true });
  try {
    const run = await w.run([w.sessionId]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(
      run.stdout,
      /- \*\*Read from:\*\* the vault \(claude no longer has this transcript\)/,
    );
    assert.match(run.stdout, /SUBAGENT-ANSWER/, "the subagent comes from the vault's sidecar");
    assert.match(run.stderr, /Read from the vault/);
  } finally {
    w.t.cleanup();
  }
});

Deno.test({
  name: "a subagent transcript that is a link to a file elsewhere is exported where it was called",
  ignore: ON_WINDOWS,
  fn: async () => {
    const w = world();
    try {
      const elsewhere = join(w.t.home, "agent.jsonl");
      Deno.renameSync(w.subagent, elsewhere);
      Deno.symlinkSync(elsewhere, w.subagent);
      const run = await w.run(["1"]);
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stdout, /### Subagent: Search the code\n[\s\S]*SUBAGENT-ANSWER/);
    } finally {
      w.t.cleanup();
    }
  },
});

Deno.test("export refuses bad input in one line", async () => {
  const w = world();
  try {
    const cases: Array<[string[], RegExp, number]> = [
      [["1", "--format", "pdf"], /--format takes md or html, not 'pdf'/, 2],
      [["1", "--json"], /--json needs -o FILE/, 2],
      [["7"], /no session #7: the list has 1/, 3],
      [
        ["nothing-like-it"],
        /no such session: nothing-like-it \(see claudecm list\)/,
        3,
      ],
      [["00000000-0000-4000-8000-000000000000"], /no transcript of session 00000000-/, 3],
      [["1", "-o", w.t.home], /is a folder; name a file/, 1],
      [["1", "-o", ""], /^claudecm: -o needs a file name, and it was empty$/m, 2],
      [["1", "-o", join(w.t.home, "no", "such", "x.md")], /the folder .* does not exist/, 1],
    ];
    for (const [args, message, code] of cases) {
      const run = await w.run(args);
      assert.equal(run.code, code, `${args.join(" ")}: ${run.stderr}`);
      assert.match(run.stderr, message);
      assert.equal(run.stderr.trim().split("\n").length, 1, run.stderr);
      if (!args.includes("--json")) assert.equal(run.stdout, "");
    }
  } finally {
    w.t.cleanup();
  }
});

Deno.test("export -o never writes into claude's or claudecm's folders, --force or not, through a link or not", async () => {
  const w = world();
  try {
    const before = treeState(w.t.home);
    const paths = w.t.ctx.paths;
    const targets = [
      w.transcript, // the session's own transcript
      join(paths.claudeRoot, ".credentials.json"),
      join(keyDirOf(w.t.ctx, w.cwd), `${crypto.randomUUID()}.jsonl`), // a new "transcript"
      paths.registryFile,
      join(paths.cmHome, "notes.md"),
      paths.claudeJsonFile,
    ];
    if (!ON_WINDOWS) {
      // A link the write would follow, and a folder link on the way.
      Deno.symlinkSync(w.transcript, join(w.t.home, "link.md"));
      Deno.symlinkSync(keyDirOf(w.t.ctx, w.cwd), join(w.t.home, "sessions-here"));
      targets.push(join(w.t.home, "link.md"), join(w.t.home, "sessions-here", "new.jsonl"));
    }
    for (const target of targets) {
      const run = await w.run(["1", "-o", target, "--force"]);
      assert.equal(run.code, 1, `${target}: ${run.stderr}`);
      assert.match(
        run.stderr,
        /^claudecm: .* is in .*, where claude and claudecm keep their own files; export writes only elsewhere\n$/,
      );
    }
    if (!ON_WINDOWS) {
      Deno.removeSync(join(w.t.home, "link.md"));
      Deno.removeSync(join(w.t.home, "sessions-here"));
    }
    assert.deepEqual(treeState(w.t.home), before, "nothing was written or replaced");
  } finally {
    w.t.cleanup();
  }
});

const chromium = !ON_WINDOWS && toolAvailable("chromium");

/** The page's DOM after a real browser loaded it (and ran whatever would run). */
async function browserDom(path: string): Promise<string> {
  const output = await new Deno.Command("chromium", {
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--dump-dom", `file://${path}`],
    stdout: "piped",
    stderr: "null",
  }).output();
  assert.ok(output.success, "chromium ran");
  return new TextDecoder().decode(output.stdout);
}

Deno.test({
  name:
    "HTML in headless Chromium: it renders, and injected script and onerror never run, even without the page's CSP",
  ignore: !chromium,
  fn: async () => {
    const w = world();
    try {
      const out = join(w.t.home, "page.html");
      const run = await w.run(["1", "--format", "html", "-o", out]);
      assert.equal(run.code, 0, run.stderr);
      // Without the Content-Security-Policy, only the escaping stands between the text and a run.
      const bare = join(w.t.home, "bare.html");
      Deno.writeTextFileSync(
        bare,
        Deno.readTextFileSync(out).replace(
          /<meta http-equiv="Content-Security-Policy"[^>]*>\n/,
          "",
        ),
      );
      for (const page of [out, bare]) {
        const dom = await browserDom(page);
        assert.match(dom, /<title>Parser Work<\/title>/, "no script changed the title");
        assert.ok(!/<script/i.test(dom), "no script element");
        assert.ok(!/<img[^>]*onerror/i.test(dom), "no image with a handler");
        assert.ok(dom.includes('&lt;script&gt;document.title="PWNED-PROMPT"&lt;/script&gt;'));
        assert.ok(dom.includes("FINAL-TEXT"), "the whole page rendered");
        assert.match(dom, /<details class="subagent" open=""><summary>Subagent: Search the code/);
        assert.match(dom, /<img class="shot" alt="image" src="data:image\/png;base64,/);
        assert.ok(HOSTILE.prompt.includes("onerror"));
      }
    } finally {
      w.t.cleanup();
    }
  },
});

/** The pages of `html` printed by Chromium. */
async function printedPages(html: string): Promise<number> {
  const pdf = `${html}.pdf`;
  const output = await new Deno.Command("chromium", {
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--no-pdf-header-footer",
      `--print-to-pdf=${pdf}`,
      `file://${html}`,
    ],
    stdout: "null",
    stderr: "null",
  }).output();
  assert.ok(output.success, "chromium printed");
  const text = new TextDecoder("latin1").decode(Deno.readFileSync(pdf));
  return [...text.matchAll(/\/Type\s*\/Page(?![a-z])/g)].length;
}

Deno.test({
  name: "HTML printed in Chromium: what is collapsed on screen is printed in full",
  ignore: !chromium,
  fn: async () => {
    const w = world();
    try {
      const out = join(w.t.home, "page.html");
      assert.equal((await w.run(["1", "--format", "html", "-o", out])).code, 0);
      // The same page with every collapsed part opened by hand: the print must be as long.
      const opened = join(w.t.home, "opened.html");
      Deno.writeTextFileSync(
        opened,
        Deno.readTextFileSync(out).replace(
          /<details class="(note|result[^"]*)">/g,
          '<details class="$1" open>',
        ),
      );
      const pages = await printedPages(out);
      assert.ok(pages >= 2, `${pages} pages`);
      assert.equal(pages, await printedPages(opened), "the 200-line result and thinking print");
    } finally {
      w.t.cleanup();
    }
  },
});

Deno.test({
  name: "Ctrl-C while -o is written leaves neither the file nor a temporary one",
  // Windows has no SIGINT to send a child.
  ignore: ON_WINDOWS,
  fn: async () => {
    const t = createTestContext();
    try {
      const cwd = makeFolder(t.home, "app");
      const id = crypto.randomUUID();
      generateTranscript(join(keyDirOf(t.ctx, cwd), `${id}.jsonl`), {
        bytes: 60_000_000,
        sessionId: id,
        cwd,
      });
      const outDir = makeFolder(t.home, "out");
      const out = join(outDir, "big.html");
      const child = claudecmCommand(["export", id, "--format", "html", "-o", out], {
        env: t.env,
        cwd,
        noStdin: true,
      }).spawn();
      // Signalled once the temporary file is being written.
      await waitUntil(() => [...Deno.readDirSync(outDir)].length > 0, 30_000);
      child.kill("SIGINT");
      const { code } = await child.output();
      assert.equal(code, 130);
      assert.deepEqual([...Deno.readDirSync(outDir)].map((e) => e.name), []);
    } finally {
      t.cleanup();
    }
  },
});

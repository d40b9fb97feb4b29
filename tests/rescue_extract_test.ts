import assert from "node:assert/strict";
import { join } from "node:path";
import { withField, work } from "../fixtures/rescue/world.ts";
import { EXTRACT_BUDGET, extractRescue, fitToBudget } from "../lib/transcript/rescue_extract.ts";

const CWD = "/home/alice/HQ/repos/private/acme-api";
const START = new Date("2026-11-30T08:00:00Z");

function withFile(content: string, body: (path: string) => void): void {
  const dir = Deno.makeTempDirSync({ prefix: "claudecm-extract-" });
  try {
    const path = join(dir, "s.jsonl");
    Deno.writeTextFileSync(path, content);
    body(path);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
}

Deno.test("extractRescue keeps metadata, first ask, files, git commands, summaries, deaths", () => {
  const b = work(CWD, "/home/alice/HQ", START)
    .tool("Bash", { command: "git push origin feature/oauth" }, "pushed")
    .tool("Bash", { command: "git status" }, "clean")
    .tool("MultiEdit", { file_path: `${CWD}/src/routes.ts`, edits: [] }, "ok")
    .text("short")
    .prompt("go").apiError("Prompt is too long").prompt("again").apiError("Prompt is too long")
    .metadata({ lastPrompt: "again" });
  withField(b, "slug", "linked-watching-lovelace");
  withFile(b.toString(), (path) => {
    const x = extractRescue(path);
    assert.equal(x.sessionId, b.sessionId);
    assert.equal(x.slug, "linked-watching-lovelace");
    assert.equal(x.cwd, CWD);
    assert.equal(x.gitBranch, "feature/oauth");
    assert.equal(x.startedAt, START.toISOString());
    assert.equal(x.firstUserMessage, "/feature add OAuth login to the API");
    assert.deepEqual(x.filesEdited, [`${CWD}/src/auth.ts`, `${CWD}/src/routes.ts`]);
    assert.deepEqual(x.filesWritten, ["/home/alice/HQ/companies/acme/notes/oauth.md"]);
    assert.equal(x.filesTouchedCount, 3);
    assert.deepEqual(x.gitCommands, [
      "git add -A && git commit -m 'Add OAuth login'",
      "git push origin feature/oauth",
    ]);
    assert.deepEqual(x.lastSummaries, [
      "I'll start by reading the current auth module and the routes that use it.",
      "The OAuth flow is wired in; next I will add the callback tests and update the docs.",
    ]);
    assert.equal(x.deathCount, 2);
    assert.equal(x.totalLines, b.lines.length);
    assert.deepEqual(x.notes, []);
  });
});

Deno.test("extractRescue skips injected lines, housekeeping commands and sidechain traffic", () => {
  const b = work(CWD, "/home/alice/HQ", START);
  b.lines.splice(0, b.lines.length);
  b.prompt("<command-name>/clear</command-name>\n<command-args></command-args>")
    .prompt("Caveat: injected", { isMeta: true })
    .text("I am a subagent and this text is long enough to count.", { isSidechain: true })
    .prompt("Fix the flaky login test please")
    .apiError("Prompt is too long");
  withFile(b.toString(), (path) => {
    const x = extractRescue(path);
    assert.equal(x.firstUserMessage, "Fix the flaky login test please");
    assert.deepEqual(x.lastSummaries, []);
    assert.equal(x.deathCount, 1);
  });
});

Deno.test("extractRescue keeps at most 5 summaries and 10 git commands, the latest", () => {
  const b = work(CWD, "/home/alice/HQ", START);
  for (let i = 0; i < 12; i++) {
    b.tool("Bash", { command: `git commit -m "step ${i}"` }, "ok")
      .text(`Finished step number ${i} of the migration, moving on.`);
  }
  withFile(b.toString(), (path) => {
    const x = extractRescue(path);
    assert.equal(x.gitCommands.length, 10);
    assert.equal(x.gitCommands.at(-1), 'git commit -m "step 11"');
    assert.equal(x.lastSummaries.length, 5);
    assert.equal(x.lastSummaries[0], "Finished step number 7 of the migration, moving on.");
  });
});

Deno.test("extractRescue fits 5 KB however many files, long asks and commands", () => {
  const b = work(CWD, "/home/alice/HQ", START);
  b.lines.splice(0, b.lines.length);
  b.prompt("p".repeat(5000));
  for (let i = 0; i < 400; i++) {
    b.tool("Edit", { file_path: `${CWD}/src/deeply/nested/module_${i}/file.ts` }, "ok");
  }
  for (let i = 0; i < 15; i++) {
    b.tool("Bash", { command: `git commit -m "${"m".repeat(300)}"` }, "ok")
      .text("t".repeat(1000));
  }
  withFile(b.toString(), (path) => {
    const x = extractRescue(path);
    assert.ok(new TextEncoder().encode(JSON.stringify(x)).length <= EXTRACT_BUDGET);
    assert.equal(x.filesTouchedCount, 400);
    assert.ok(x.filesEdited.length > 0);
    assert.equal(x.filesEdited.at(-1), `${CWD}/src/deeply/nested/module_399/file.ts`);
    assert.equal(x.firstUserMessage!.length, 500);
    assert.equal(x.lastSummaries[0].length, 300);
  });
});

Deno.test("fitToBudget leaves a small extract alone and trims file lists evenly", () => {
  const small = {
    sessionId: "s",
    slug: null,
    cwd: null,
    gitBranch: null,
    startedAt: null,
    firstUserMessage: "hi",
    filesEdited: ["a"],
    filesWritten: ["b"],
    filesTouchedCount: 2,
    gitCommands: [],
    lastSummaries: [],
    deathCount: 1,
    totalLines: 3,
    notes: [],
  };
  assert.deepEqual(fitToBudget(small), small);
  const many = {
    ...small,
    filesEdited: Array.from({ length: 100 }, (_, i) => `/e/${i}`.padEnd(60, "x")),
    filesWritten: Array.from({ length: 100 }, (_, i) => `/w/${i}`.padEnd(60, "x")),
  };
  const fitted = fitToBudget(many, 2000);
  assert.ok(JSON.stringify(fitted).length <= 2000);
  assert.ok(Math.abs(fitted.filesEdited.length - fitted.filesWritten.length) <= 1);
  assert.equal(fitted.filesEdited.at(-1), many.filesEdited.at(-1));
});

Deno.test("extractRescue reads truncated, corrupt and oversized-line transcripts with notes", () => {
  const b = work(CWD, "/home/alice/HQ", START).raw("{not json").apiError("Prompt is too long")
    .raw('{"type":"assistant","message":{"content":[{"type":"te');
  withFile(b.toString().replace(/\n$/, ""), (path) => {
    const x = extractRescue(path);
    assert.equal(x.deathCount, 1);
    assert.deepEqual(x.notes, ["1 corrupt line (line 13) skipped", "last line half-written"]);
  });
  const huge = work(CWD, "/home/alice/HQ", START);
  huge.tool("Read", { file_path: `${CWD}/big.log` }, "z".repeat(17 * 1024 * 1024))
    .apiError("Prompt is too long");
  withFile(huge.toString(), (path) => {
    const x = extractRescue(path);
    assert.equal(x.deathCount, 1);
    assert.deepEqual(x.notes, ["1 line too long to read (line 14) skipped"]);
  });
  withFile("", (path) => {
    const x = extractRescue(path);
    assert.equal(x.totalLines, 0);
    assert.equal(x.firstUserMessage, null);
  });
});

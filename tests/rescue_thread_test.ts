import assert from "node:assert/strict";
import { join } from "node:path";
import {
  readThreadRows,
  recoveredSessionIds,
  renderHandoff,
  renderRecent,
  type ThreadRow,
  updateIndex,
} from "../lib/app/rescue/artifacts.ts";
import { buildThread, mechanicalSummary, sessionSlug, threadId } from "../lib/app/rescue/thread.ts";
import {
  detectCompany,
  openWorkspace,
  projectName,
  relativize,
  type Workspace,
} from "../lib/app/rescue/workspace.ts";
import type { DeadSession } from "../lib/transcript/dead_scan.ts";
import type { RescueExtract } from "../lib/transcript/rescue_extract.ts";

const WS: Workspace = {
  root: "/home/alice/HQ",
  threadsDir: "/home/alice/HQ/workspace/threads",
  companies: ["acme", "acme-labs", "globex"],
};

const SESSION: DeadSession = {
  id: "85753ba5-2aa2-4459-9797-afd23f0a009d",
  path: "/x/85753ba5-2aa2-4459-9797-afd23f0a009d.jsonl",
  projectDir: "-home-alice-HQ-repos-private-acme-api",
  size: 40_000,
  signal: "prompt-too-long",
  diedAt: "2026-11-30T07:45:23.592Z",
  cwd: "/home/alice/HQ/repos/private/acme-api",
  gitBranch: "feature/oauth",
  notes: [],
};

const EXTRACT: RescueExtract = {
  sessionId: SESSION.id,
  slug: "linked-watching-lovelace",
  cwd: "/home/alice/HQ/repos/private/acme-api",
  gitBranch: "feature/oauth",
  startedAt: "2026-11-30T07:00:00.000Z",
  firstUserMessage: "/feature add OAuth login",
  filesEdited: ["/home/alice/HQ/repos/private/acme-api/src/auth.ts"],
  filesWritten: ["/home/alice/HQ/companies/acme/notes/oauth.md", "/tmp/outside.txt"],
  filesTouchedCount: 3,
  gitCommands: ["git commit -m 'x'"],
  lastSummaries: ["Wired the OAuth flow; callback tests are next."],
  deathCount: 2,
  totalLines: 180,
  notes: [],
};

Deno.test("threadId names the thread after the death time in UTC", () => {
  assert.equal(
    threadId("2026-11-30T07:45:23.592Z", "linked-watching-lovelace"),
    "T-20261130-074523-recovered-linked-watching-lovelace",
  );
  assert.equal(threadId("2026-02-12T23:59:59+02:00", "x"), "T-20260212-215959-recovered-x");
});

Deno.test("sessionSlug: the session's own slug, else its title, else its id", () => {
  assert.equal(sessionSlug({ ...SESSION, slug: "merry-nibbling-coral" }), "merry-nibbling-coral");
  assert.equal(
    sessionSlug({ ...SESSION, title: "Fix: the café's login / redirect (again) now" }),
    "fix-the-cafes-login-redirect",
  );
  assert.equal(sessionSlug(SESSION), "85753ba5");
  assert.equal(sessionSlug(SESSION, EXTRACT), "linked-watching-lovelace");
});

Deno.test("detectCompany: cwd companies/ folder, repo name, files touched, else personal", () => {
  assert.equal(detectCompany(WS, "/home/alice/HQ/companies/globex/reports", []), "globex");
  assert.equal(detectCompany(WS, "/home/alice/HQ/repos/private/acme", []), "acme");
  assert.equal(detectCompany(WS, "/home/alice/HQ/repos/private/acme-api/src", []), "acme");
  assert.equal(detectCompany(WS, "/home/alice/HQ/repos/public/acme-labs-site", []), "acme-labs");
  // No companies/ folder: the spec's rule, the repo name up to its first dash.
  const bare = { ...WS, companies: [] };
  assert.equal(detectCompany(bare, "/home/alice/code/repos/private/initech-web", []), "initech");
  assert.equal(detectCompany(bare, "/home/alice/repos/tool", []), "tool");
  const files = [
    "/home/alice/HQ/companies/globex/a.md",
    "companies/globex/b.md",
    "companies/acme/c",
  ];
  assert.equal(detectCompany(WS, "/home/alice/HQ", files), "globex");
  assert.equal(detectCompany(WS, "/home/alice/HQ", ["/home/alice/HQ/notes.md"]), "personal");
  assert.equal(detectCompany(WS, null, []), "personal");
});

Deno.test("projectName and relativize follow the workspace layout", () => {
  assert.equal(projectName(WS, "/home/alice/HQ", "-home-alice-HQ"), "HQ");
  assert.equal(projectName(WS, "/home/alice/HQ/", "-home-alice-HQ"), "HQ");
  assert.equal(projectName(WS, "/home/alice/HQ/repos/private/acme-api/src", "k"), "acme-api");
  assert.equal(projectName(WS, "/srv/other/tool", "k"), "tool");
  assert.equal(projectName(WS, null, "-home-alice-x"), "-home-alice-x");
  assert.equal(relativize(WS, "/home/alice/HQ/companies/acme/a.md"), "companies/acme/a.md");
  assert.equal(relativize(WS, "/home/alice/HQ"), ".");
  assert.equal(relativize(WS, "/home/alice/HQX/a.md"), "/home/alice/HQX/a.md");
  assert.equal(relativize(WS, "/tmp/a.md"), "/tmp/a.md");
  assert.equal(relativize(WS, "src/a.ts"), "src/a.ts");
});

Deno.test("buildThread fills every field of the thread format", () => {
  const summary = mechanicalSummary(SESSION, EXTRACT);
  assert.equal(
    summary,
    "Set out to: /feature add OAuth login. Last progress: Wired the OAuth flow; callback tests are next.",
  );
  const thread = buildThread({ session: SESSION, extract: EXTRACT, workspace: WS, summary });
  assert.deepEqual(thread, {
    id: "T-20261130-074523-recovered-linked-watching-lovelace",
    created_at: "2026-11-30T07:45:23.592Z",
    summary,
    status: "interrupted",
    category: "recovered",
    company: "acme",
    git: { branch: "feature/oauth", repos: {} },
    files_touched: [
      "repos/private/acme-api/src/auth.ts",
      "companies/acme/notes/oauth.md",
      "/tmp/outside.txt",
    ],
    next_actions: [
      "Check the working tree in repos/private/acme-api (git status, git diff): 3 file(s) were " +
      "changed and their state at death is unknown",
      "Review the last commit the session made and push it: the session never pushed it",
      "Pick up from the last step: Wired the OAuth flow; callback tests are next.",
      "Confirm the original goal is met: /feature add OAuth login",
      "Split the remaining work into smaller sessions: this one hit the context limit 2 times",
      `Continue in a fresh session from this thread (resuming ${SESSION.id} needs /compact first)`,
    ],
    recovery: {
      original_session_id: SESSION.id,
      original_slug: "linked-watching-lovelace",
      death_timestamp: "2026-11-30T07:45:23.592Z",
      death_count: 2,
      total_lines: 180,
      project_dir: "acme-api",
    },
  });
});

Deno.test("next actions follow how the session ended", () => {
  const quiet = {
    ...EXTRACT,
    filesEdited: [],
    filesWritten: [],
    filesTouchedCount: 0,
    gitCommands: ["git commit -m a", "git push"],
    lastSummaries: [],
    firstUserMessage: null,
    deathCount: 1,
  };
  const thread = buildThread({ session: SESSION, extract: quiet, workspace: WS, summary: "s" });
  assert.deepEqual(thread.next_actions, [
    `Continue in a fresh session from this thread (resuming ${SESSION.id} needs /compact first)`,
  ]);
  assert.equal(
    mechanicalSummary({ ...SESSION, title: "Draft" }, { ...quiet, slug: null }),
    "Session draft (Draft).",
  );
});

const row = (id: string, created: string, summary = "s"): ThreadRow => ({
  id,
  created_at: created,
  summary,
  status: "interrupted",
});

Deno.test("recent.md lists the last 15 threads, newest first, with safe table cells", () => {
  const rows = Array.from(
    { length: 20 },
    (_, i) => row(`T-${i}`, `2026-11-${String(i + 1).padStart(2, "0")}T00:00:00Z`),
  );
  rows.push(row("T-pipe", "2026-12-31T00:00:00Z", "a | b\nc"));
  const text = renderRecent(rows);
  const lines = text.split("\n");
  assert.equal(lines[0], "# Recent threads");
  assert.equal(lines[2], "| Thread | Created | Summary | Status |");
  assert.equal(lines[4], "| T-pipe | 2026-12-31 | a \\| b c | interrupted |");
  assert.equal(lines[5], "| T-19 | 2026-11-20 | s | interrupted |");
  assert.equal(lines.filter((l) => l.startsWith("| T-")).length, 15);
});

Deno.test("INDEX.md: rows go into the existing table, the rest of the file is kept", () => {
  const existing =
    "# Threads\r\n\r\nIntro text.\r\n\r\n| Thread | Created | Summary | Status |\r\n" +
    "|---|---|---|---|\r\n| T-old | 2026-01-01 | old | done |\r\n\r\n## Notes\r\nkeep me\r\n";
  const updated = updateIndex(existing, [row("T-new", "2026-11-30T00:00:00Z", "new one")]);
  assert.equal(
    updated,
    existing.replace(
      "|---|---|---|---|\r\n",
      "|---|---|---|---|\r\n| T-new | 2026-11-30 | new one | interrupted |\r\n",
    ),
  );
  // A row already listed is not added twice.
  assert.equal(updateIndex(updated, [row("T-new", "2026-11-30T00:00:00Z")]), updated);
  // No table: one is appended; no file: one is created.
  const appended = updateIndex("# My index\n", [row("T-a", "2026-11-30T00:00:00Z")]);
  assert.match(appended, /^# My index\n\n## Recovered threads\n\n\| Thread \|/);
  assert.match(appended, /\| T-a \| 2026-11-30 \| s \| interrupted \|\n$/);
  assert.match(updateIndex(undefined, [row("T-a", "2026-11-30T00:00:00Z")]), /^# Threads\n/);
});

Deno.test("handoff.json points at the newest recovered thread", () => {
  const thread = buildThread({
    session: SESSION,
    extract: EXTRACT,
    workspace: WS,
    summary: "Did X.",
  });
  const handoff = renderHandoff(thread, [thread, thread], new Date("2026-11-30T12:00:00Z"));
  assert.deepEqual(handoff, {
    created_at: "2026-11-30T12:00:00.000Z",
    message: "Recovered dead session: linked-watching-lovelace (and 1 more)",
    last_thread: thread.id,
    thread_path: `workspace/threads/${thread.id}.json`,
    context_notes: `Did X. Died from context limits. ${thread.next_actions[0]}`,
  });
});

Deno.test("threads dir: recovered ids by text match, rows of the threads that parse", () => {
  const dir = Deno.makeTempDirSync({ prefix: "claudecm-threads-" });
  try {
    const thread = { id: "T-1", created_at: "2026-11-30", summary: "s", status: "open" } as const;
    Deno.writeTextFileSync(join(dir, "T-1.json"), JSON.stringify(thread));
    Deno.writeTextFileSync(
      join(dir, "T-2.json"),
      '{"id": "T-2", "recovery": {"original_session_id" : "abc-1"}, broken',
    );
    Deno.writeTextFileSync(join(dir, "handoff.json"), '{"original_session_id": "not-a-thread"}');
    Deno.writeTextFileSync(join(dir, "notes.txt"), '"original_session_id": "nope"');
    assert.deepEqual([...recoveredSessionIds(dir)], ["abc-1"]);
    assert.deepEqual(readThreadRows(dir), [thread as unknown as ThreadRow]);
    assert.deepEqual([...recoveredSessionIds(join(dir, "missing"))], []);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("openWorkspace: companies from companies/, a missing folder is a clear error", () => {
  const dir = Deno.makeTempDirSync({ prefix: "claudecm-ws-" });
  try {
    Deno.mkdirSync(join(dir, "companies", "acme"), { recursive: true });
    Deno.writeTextFileSync(join(dir, "companies", "README.md"), "");
    const ws = openWorkspace(dir);
    assert.equal(ws.root, dir);
    assert.equal(ws.threadsDir, join(dir, "workspace", "threads"));
    assert.deepEqual(ws.companies, ["acme"]);
    assert.throws(() => openWorkspace(join(dir, "nope")), /workspace folder not found: .*nope/);
    Deno.writeTextFileSync(join(dir, "a file"), "");
    assert.throws(
      () => openWorkspace(join(dir, "a file")),
      /the workspace is not a folder: .*a file/,
    );
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

import assert from "node:assert/strict";
import { join } from "node:path";
import { REDACTED, Redactor } from "../lib/core/redact.ts";
import { exportSession } from "../lib/app/export/export_session.ts";
import { escapeHtml, htmlView, markdownHtml } from "../lib/app/export/html_view.ts";
import { markdownView } from "../lib/app/export/markdown_view.ts";
import { inertMarkdown, keptLineBreaks } from "../lib/app/export/markdown_text.ts";
import type { ExportHeader } from "../lib/app/export/render.ts";
import { toolCallView, toolResultView } from "../lib/app/export/tool_view.ts";
import { listSubagents, readExportFacts } from "../lib/transcript/export_facts.ts";
import { readExportItems } from "../lib/transcript/export_read.ts";
import { HOSTILE, PNG, SECRETS, writeExportFixture } from "./helpers/export_fixture.ts";
import { TranscriptBuilder } from "../fixtures/transcripts/builder.ts";

function fixture() {
  const dir = Deno.makeTempDirSync({ prefix: "claudecm-export-" });
  const made = writeExportFixture(dir, { cwd: "/home/alice/app" });
  return { dir, ...made, cleanup: () => Deno.removeSync(dir, { recursive: true }) };
}

const HEADER: ExportHeader = {
  title: "Export fixture",
  sessionId: "s",
  source: "claude's project folder",
};

function render(
  path: string,
  subagentsOf: string,
  format: "md" | "html",
  redactor?: Redactor,
): { text: string; counts: ReturnType<typeof exportSession> } {
  let text = "";
  const write = (piece: string) => text += piece;
  const view = format === "md" ? markdownView(write) : htmlView(write);
  const counts = exportSession(path, view, {
    header: HEADER,
    subagents: listSubagents(subagentsOf, join),
    redactor,
  });
  return { text, counts };
}

Deno.test("the reader hands out every block type in file order and counts the bad lines", () => {
  const f = fixture();
  try {
    const kinds: string[] = [];
    const report = readExportItems(f.transcript, (item) => {
      if (item.kind === "event") kinds.push(`event:${item.event.subtype}`);
      else for (const block of item.turn.blocks) kinds.push(`${item.turn.role}:${block.kind}`);
    });
    for (
      const kind of [
        "user:text",
        "assistant:thinking",
        "assistant:text",
        "assistant:tool_use",
        "user:tool_result",
        "user:image",
        "event:compact_boundary",
      ]
    ) assert.ok(kinds.includes(kind), `${kind} in ${kinds.join(" ")}`);
    assert.equal(report.corrupt, 2);
    assert.deepEqual(report.corruptLines.length, 2);
  } finally {
    f.cleanup();
  }
});

Deno.test("the header's facts come from the head and the tail", () => {
  const f = fixture();
  try {
    const facts = readExportFacts(f.transcript);
    assert.equal(facts.customTitle, "Export fixture");
    assert.equal(facts.aiTitle, "Fixing the parser");
    assert.equal(facts.cwd, "/home/alice/app");
    assert.equal(facts.firstTimestamp, "2026-11-28T21:06:40.000Z");
    assert.ok(facts.lastTimestamp! > facts.firstTimestamp!);
    assert.equal(facts.contextTokens, 6 + 18_100 + 64);
  } finally {
    f.cleanup();
  }
});

Deno.test("Markdown: speakers, thinking collapsed, Bash as a code block, Edit as a diff, long results collapsed, the subagent where called", () => {
  const f = fixture();
  try {
    const { text, counts } = render(f.transcript, join(f.dir, f.sessionId), "md");
    assert.match(text, /^# Export fixture\n/);
    assert.match(text, /## User · 2026-11-28 21:06:40 UTC\n\n> Fix the parser\./);
    assert.match(
      text,
      /<details><summary>Thinking<\/summary>\n\n```\nThe user wants THINKING-TEXT/,
    );
    assert.match(text, /\*\*Bash\*\* `List files`\n\n```bash\nls -la && echo BASH-CMD\n```/);
    assert.match(text, /```diff\n-const OLD_LINE = 1;\n\+const NEW_LINE = 2;\n```/);
    assert.match(text, /<details><summary>Result of Read \(4 KB, 200 lines\)<\/summary>/);
    assert.match(text, /!\[image\]\(data:image\/png;base64,/);
    assert.ok(text.includes(PNG));
    // The subagent's conversation sits right after the Task's result, before what followed it.
    const task = text.indexOf("*Result of Task:*");
    const answer = text.indexOf("SUBAGENT-ANSWER");
    const sidechain = text.indexOf("SIDECHAIN-TEXT");
    assert.ok(task !== -1 && task < answer && answer < sidechain, "subagent where it was called");
    assert.match(text, /### Subagent: Search the code/);
    assert.ok(text.indexOf("FORKED-LINE") < text.indexOf("FINAL-TEXT"));
    assert.match(text, /Not exported: 2 corrupt lines \(lines \d+, \d+\) skipped\./);
    assert.equal(counts.subagents, 1);
    assert.equal(counts.skippedLines, 2);
    // Without --redact, nothing is altered.
    for (const secret of Object.values(SECRETS)) {
      for (const line of secret.split("\n")) assert.ok(text.includes(line), line);
    }
  } finally {
    f.cleanup();
  }
});

Deno.test("Markdown: HTML in prompts, Claude's text and names shows as typed; code keeps its <", () => {
  const f = fixture();
  try {
    let text = "";
    const view = markdownView((piece) => text += piece);
    exportSession(f.transcript, view, {
      header: { ...HEADER, title: "Fix <img src=x onerror=alert(1)>", folder: "/srv/<b>app" },
      subagents: listSubagents(join(f.dir, f.sessionId), join),
    });
    // Outside code, no '<' is left that a viewer reads as a tag (VS Code, Obsidian render them).
    const outsideCode = text.replace(/^(`{3,})[^\n]*\n[\s\S]*?^\1$/gm, "").replace(
      /`[^`\n]+`/g,
      "",
    );
    assert.doesNotMatch(outsideCode.replace(/<\/?(details|summary)>/g, ""), /<[A-Za-z/!?]/);
    assert.ok(text.includes("> Fix the parser. &lt;script>document.title="), "the prompt as typed");
    assert.ok(text.includes("Claude says &lt;script>document.title='PWNED-MD'&lt;/script>"));
    assert.match(text, /^# Fix &lt;img src=x onerror=alert\(1\)>$/m);
    assert.match(text, /^- \*\*Folder:\*\* \/srv\/&lt;b>app$/m);
    // A tool's output stays in its code block as it was.
    assert.ok(text.includes(HOSTILE.output));
  } finally {
    f.cleanup();
  }
});

Deno.test("Markdown: a prompt's lines stay lines in a viewer (hard breaks), its code as it was", () => {
  const f = fixture();
  try {
    const { text } = render(f.transcript, join(f.dir, f.sessionId), "md");
    // The keys prompt: one per line as typed, not run together into one paragraph.
    assert.ok(text.includes(`> Here are my keys:  \n> ${SECRETS.anthropic}  \n`), text);
  } finally {
    f.cleanup();
  }
  assert.equal(
    keptLineBreaks("a\nb\n\nc\n```\nx\ny\n```\nd"),
    "a  \nb\n\nc  \n```\nx\ny\n```\nd",
  );
});

Deno.test("inertMarkdown: code is spared only where a viewer certainly sees code", () => {
  const cases: Array<[string, string]> = [
    ["a `Array<T>` and <b>", "a `Array<T>` and &lt;b>"],
    [
      "```ts\nconst a: Array<T> = f(<X/>);\n```\n<script>",
      "```ts\nconst a: Array<T> = f(<X/>);\n```\n&lt;script>",
    ],
    ["~~~\n<a>\n~~~~\n<a>", "~~~\n<a>\n~~~~\n&lt;a>"],
    // A span a viewer may close on the next line shifts every span after it: escaped whole.
    ["`a\nb` <img onerror=x> `c`", "`a\nb` &lt;img onerror=x> `c`"],
    // An escaped backtick opens nothing; an escaped '<' is left as it is.
    ["\\`<img>\\` and \\<b>", "\\`&lt;img>\\` and \\<b>"],
    // An indented fence may be a list item's, which a line less indented ends: not spared.
    ["- a\n   ```\n<img>\n   ```", "- a\n   ```\n&lt;img>\n   ```"],
    // A blank line ends the paragraph, and the doubt with it.
    ["`open\n\n`<b>`", "`open\n\n`<b>`"],
    ["<!-- c --> <?x?> <http://a.b>", "&lt;!-- c --> &lt;?x?> &lt;http://a.b>"],
  ];
  for (const [text, inert] of cases) assert.equal(inertMarkdown(text), inert, text);
});

Deno.test("--redact replaces a secret of each shape and counts them", () => {
  const f = fixture();
  try {
    const redactor = new Redactor();
    const { text } = render(f.transcript, join(f.dir, f.sessionId), "md", redactor);
    for (const [shape, secret] of Object.entries(SECRETS)) {
      const telling = shape === "authorization"
        ? "eyJhbGciOiJIUzI1NiJ9"
        : shape === "urlPassword"
        ? "Sup3rS3cret"
        : secret.split("\n")[1] ?? secret;
      assert.ok(!text.includes(telling), `${shape} redacted`);
    }
    assert.equal(redactor.count, Object.keys(SECRETS).length);
    assert.match(text, /Authorization: \[redacted\]/);
    assert.match(text, /postgres:\/\/app:\[redacted\]@db\.internal/);
    assert.match(text, /9 secret-shaped strings replaced with \[redacted\]\./);
  } finally {
    f.cleanup();
  }
});

Deno.test("--redact knows each shape in the other forms it is written in", () => {
  // [text, the secret part that must be gone, what must stay]
  const cases: Array<[string, string, string]> = [
    // Slack app-level tokens are xapp-, not xox*.
    [
      "SLACK_APP_TOKEN=xapp-1-A0123456789-1234567890123-abcdef0123",
      "abcdef0123",
      "SLACK_APP_TOKEN=",
    ],
    // An Authorization header as code writes it: a JSON object, a dict, a JS literal, any case.
    ['{"Authorization":"Bearer abc.def.SIG1"}', "SIG1", '{"Authorization":"'],
    ["headers = {'authorization': 'Token SIG2'}", "SIG2", "headers = {'authorization': '"],
    ["AUTHORIZATION: Basic dXNlcjpSIG3", "dXNlcjpSIG3", "AUTHORIZATION: "],
    // A URL whose user is empty (redis://:password@host).
    ["redis://:hunter2SIG4@cache.internal:6379/0", "hunter2SIG4", "@cache.internal"],
    // AWS's own JSON (aws sts assume-role, credentials files written by SDKs).
    ['"SecretAccessKey": "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"', "wJalrXUtnFEMI", "Secret"],
    // A private key cut short (head, a truncated tool output): its lines still go.
    [
      "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAx4SIG5\nabcdefSIG6\n(output truncated)",
      "SIG5",
      "\n(output truncated)",
    ],
    ["-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAx4SIG5\nabcdefSIG6", "SIG6", ""],
    // The same, written into a string literal with \n escapes.
    ['key = "-----BEGIN PRIVATE KEY-----\\nMIIEvSIG7\\nQWERTY"', "SIG7", 'key = "'],
  ];
  for (const [text, secret, kept] of cases) {
    const redactor = new Redactor();
    const shown = redactor.redact(text);
    assert.ok(!shown.includes(secret), `${text} -> ${shown}`);
    assert.ok(shown.includes(kept), `${text} -> ${shown}`);
    assert.ok(shown.includes(REDACTED), shown);
    assert.equal(redactor.count, 1, shown);
  }
});

Deno.test("--redact: a secret a tool's input holds under its name is replaced too, and twice is once", () => {
  const dir = Deno.makeTempDirSync({ prefix: "claudecm-export-" });
  try {
    const b = new TranscriptBuilder({ cwd: "/home/alice/app" });
    b.prompt("fetch it");
    b.tool("mcp__http__request", {
      url: "https://api.example.com/v1",
      headers: { Authorization: "Bearer TOKEN-IN-HEADERS", Accept: "application/json" },
      aws_secret_access_key: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
    }, "ok");
    const path = b.write(join(dir, `${b.sessionId}.jsonl`));
    const redactor = new Redactor();
    const { text } = render(path, join(dir, b.sessionId), "md", redactor);
    assert.ok(!text.includes("TOKEN-IN-HEADERS"), text);
    assert.ok(!text.includes("wJalrXUtnFEMI"), text);
    assert.match(text, /"Authorization": "\[redacted\]"/);
    assert.equal(redactor.count, 2);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
  const redactor = new Redactor();
  const once = redactor.redact(
    `Authorization: Bearer x\n${SECRETS.urlPassword}\n${SECRETS.github}`,
  );
  assert.equal(redactor.count, 3);
  assert.equal(redactor.redact(once), once);
  assert.equal(redactor.count, 3, "nothing more replaced or counted");
});

Deno.test("redaction leaves ordinary text, and short look-alikes, as they are", () => {
  const redactor = new Redactor();
  const text =
    "sk-short, ask-anthropic, https://example.com/a:b@c no, AKIA12, xoxb-1, Bearer in prose";
  assert.equal(redactor.redact(text), text);
  assert.equal(redactor.count, 0);
  assert.equal(redactor.redact(`key=${SECRETS.github}.`), `key=${REDACTED}.`);
});

Deno.test("HTML: every piece of transcript text is escaped, Claude's Markdown rendered from the escaped text", () => {
  const f = fixture();
  try {
    const { text } = render(f.transcript, join(f.dir, f.sessionId), "html");
    assert.ok(!/<script/i.test(text), "no script element");
    assert.ok(!/<img[^>]*onerror/i.test(text), "no handler");
    assert.ok(text.includes(escapeHtml(HOSTILE.output)));
    assert.ok(text.includes("&lt;script&gt;document.title=&#39;PWNED-MD&#39;&lt;/script&gt;"));
    assert.match(text, /<strong>bold<\/strong> and <code>code<\/code>/);
    assert.ok(!/(?:src|href)="(?!data:)/.test(text), "nothing refers outside the page");
    assert.match(text, /Content-Security-Policy" content="default-src 'none'/);
    assert.match(text, /<\/footer>\n<\/body>\n<\/html>\n$/);
  } finally {
    f.cleanup();
  }
});

Deno.test("markdownHtml: code fences, headings, lists; no raw tag survives", () => {
  assert.equal(
    markdownHtml("# Title\n\n- a <b>\n- `x<y`\n\n```ts\nif (a < b) {}\n```\nafter"),
    "<h3>Title</h3><ul><li>a &lt;b&gt;</li><li><code>x&lt;y</code></li></ul>" +
      "<pre><code>if (a &lt; b) {}</code></pre><p>after</p>",
  );
  // As Claude writes it: a heading, a sentence and lists with no blank line between them.
  assert.equal(
    markdownHtml("## Summary\nThe fix:\n- one\n  more\n- **two**\n1. a\nDone."),
    "<h4>Summary</h4><p>The fix:</p><ul><li>one\nmore</li><li><strong>two</strong></li></ul>" +
      "<ol><li>a</li></ol><p>Done.</p>",
  );
});

Deno.test("tool views: MultiEdit hunks, Write as the file, other tools as their input, results sized", () => {
  const multi = toolCallView("MultiEdit", {
    file_path: "a.ts",
    edits: [{ old_string: "a", new_string: "b" }, { old_string: "c", new_string: "d" }],
  });
  assert.equal(multi.diff?.length, 2);
  assert.deepEqual(toolCallView("Write", { file_path: "x.py", content: "print()" }).code, {
    language: "python",
    text: "print()",
  });
  assert.equal(toolCallView("Grep", { pattern: "x", path: "src" }).code?.language, "json");
  assert.equal(toolResultView({ text: "boom", isError: true }, "Bash").title, "Error from Bash");
  assert.equal(
    toolResultView({ text: "x".repeat(5000), isError: false }, undefined).collapsed,
    "5 KB, 1 line",
  );
});

Deno.test("a fence inside a result cannot end the Markdown code block early", () => {
  const dir = Deno.makeTempDirSync({ prefix: "claudecm-export-" });
  try {
    const path = join(dir, "s.jsonl");
    Deno.writeTextFileSync(
      path,
      JSON.stringify({
        type: "user",
        message: {
          role: "user",
          content: [{ type: "tool_result", tool_use_id: "t", content: "a\n```\n# not a heading" }],
        },
      }) + "\n",
    );
    const { text } = render(path, join(dir, "s"), "md");
    assert.match(text, /````\na\n```\n# not a heading\n````/);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("a subagent's bad line is counted and said too, the rest of it exported", () => {
  const f = fixture();
  try {
    Deno.writeTextFileSync(f.subagent, "{not json\n", { append: true });
    const { text, counts } = render(f.transcript, join(f.dir, f.sessionId), "md");
    assert.match(text, /Not exported: 1 unreadable line of subagent transcripts\./);
    assert.match(text, /SUBAGENT-ANSWER/);
    assert.equal(counts.skippedLines, 3);
  } finally {
    f.cleanup();
  }
});

Deno.test("an image given by URL and a block the export does not render are named, never fetched or dropped", () => {
  const dir = Deno.makeTempDirSync({ prefix: "claudecm-export-" });
  try {
    const b = new TranscriptBuilder({ cwd: "/home/alice/app" });
    const url = `https://img.example.com/shot.png?token=${SECRETS.github}&x=<b>`;
    b.raw(JSON.stringify({
      type: "user",
      sessionId: b.sessionId,
      message: {
        role: "user",
        content: [
          { type: "text", text: "look at these" },
          { type: "image", source: { type: "url", url } },
          {
            type: "document",
            source: { type: "base64", media_type: "application/pdf", data: "JVBERi0=" },
          },
        ],
      },
    }));
    const path = b.write(join(dir, `${b.sessionId}.jsonl`));
    for (const format of ["md", "html"] as const) {
      const { text } = render(path, join(dir, b.sessionId), format);
      assert.match(text, /an image at https:\/\/img\.example\.com\/shot\.png/, format);
      assert.match(text, /a document block, not shown/, format);
      assert.doesNotMatch(
        text,
        /<img[^>]*img\.example|!\[[^\]]*\]\(https:/,
        `${format}: not loaded`,
      );
      if (format === "html") assert.ok(!text.includes("&x=<b>"), "the URL is escaped");
      const redacted = render(path, join(dir, b.sessionId), format, new Redactor()).text;
      assert.ok(!redacted.includes(SECRETS.github), `${format}: the URL is redacted`);
    }
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

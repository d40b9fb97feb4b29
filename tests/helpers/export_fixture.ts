/**
 * A session with every block type an export shows, hostile text in prompts
 * and tool output, a secret of each shape, a subagent transcript, a
 * sidechain line, a `continued-in` line, a branch copy's `forkedFrom`, and
 * two bad lines. Built with the transcript builder, plus raw lines for the
 * blocks it has no method for (thinking, images).
 *
 * @module
 */

import { join } from "../../lib/core/path.ts";
import { TranscriptBuilder } from "../../fixtures/transcripts/builder.ts";

/** Script and image injections that must show as text. */
export const HOSTILE = {
  prompt:
    `<script>document.title="PWNED-PROMPT"</script> and <img src=x onerror="document.title='PWNED-IMG'">`,
  output: `</pre></details><script>document.title="PWNED-OUTPUT"</script><b>bold?</b>`,
  markdown: "Claude says <script>document.title='PWNED-MD'</script> and **bold** and `code`",
};

/** One secret of each shape --redact knows, with a word that identifies it. */
export const SECRETS: Record<string, string> = {
  anthropic: "sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789_-AbCdEf",
  openai: "sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789",
  github: "ghp_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789",
  aws: "AKIAIOSFODNN7EXAMPLE",
  slack: "xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOp",
  google: "AIzaSyAbCdEfGhIjKlMnOpQrStUvWxYz0123456",
  privateKey:
    "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----",
  authorization: "Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.payload.sig",
  urlPassword: "postgres://app:Sup3rS3cret@db.internal:5432/app",
};

/** A 1x1 PNG. */
export const PNG =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

/** What {@linkcode writeExportFixture} wrote. */
export interface ExportFixture {
  sessionId: string;
  transcript: string;
  subagent: string;
  agentId: string;
}

/** Write the session into `folder` (a project folder): its transcript and its subagent. */
export function writeExportFixture(
  folder: string,
  options: { cwd: string; sessionId?: string },
): ExportFixture {
  const b = new TranscriptBuilder({ cwd: options.cwd, sessionId: options.sessionId });
  b.metadata({ customTitle: "Export fixture", agentName: "Export fixture" });
  b.prompt(`Fix the parser. ${HOSTILE.prompt}`);
  const line = (value: Record<string, unknown>) =>
    b.raw(JSON.stringify({
      parentUuid: null,
      isSidechain: false,
      uuid: crypto.randomUUID(),
      timestamp: b.now.toISOString(),
      cwd: options.cwd,
      sessionId: b.sessionId,
      ...value,
    }));
  line({
    type: "assistant",
    message: {
      model: "claude-opus-4-5-20251101",
      role: "assistant",
      content: [{
        type: "thinking",
        thinking: "The user wants THINKING-TEXT here.",
        signature: "x",
      }],
      usage: { input_tokens: 10, cache_read_input_tokens: 20_000, output_tokens: 90 },
    },
  });
  b.text(HOSTILE.markdown);
  b.tool("Bash", { command: "ls -la && echo BASH-CMD", description: "List files" }, HOSTILE.output);
  b.tool(
    "Edit",
    {
      file_path: `${options.cwd}/src/a.ts`,
      old_string: "const OLD_LINE = 1;",
      new_string: "const NEW_LINE = 2;",
    },
    "The file has been updated.",
  );
  b.tool("Bash", { command: "npm test" }, "\x1b[31mFAILED-IN-RED\x1b[0m \x1b]0;title\x07");
  const long = Array.from({ length: 200 }, (_, i) => `long output line ${i}`).join("\n");
  b.tool("Read", { file_path: `${options.cwd}/src/big.ts` }, long);
  b.prompt(`Here are my keys:\n${Object.values(SECRETS).join("\n")}`);
  line({
    type: "user",
    message: {
      role: "user",
      content: [
        { type: "text", text: "A screenshot:" },
        { type: "image", source: { type: "base64", media_type: "image/png", data: PNG } },
      ],
    },
  });
  const agentId = "a1b2c3d4e5f6a7b8c";
  b.toolUse("Task", {
    description: "Search the code",
    prompt: "Find SUBAGENT-PROMPT uses",
    subagent_type: "Explore",
  });
  b.toolResult(b.lastToolUseId, "Found 3 uses.", {
    toolUseResult: { agentId, status: "completed" },
  });
  b.text("Sidechain text SIDECHAIN-TEXT", { isSidechain: true });
  b.raw("{this line is not json");
  b.raw(JSON.stringify({ type: "continued-in", continuedInSessionId: crypto.randomUUID() }));
  line({
    type: "user",
    forkedFrom: { sessionId: crypto.randomUUID(), messageUuid: crypto.randomUUID() },
    message: { role: "user", content: "A branch copy's line FORKED-LINE" },
  });
  b.system("compact_boundary", {
    content: "Conversation compacted",
    compactMetadata: { trigger: "manual" },
  });
  b.text("Done. FINAL-TEXT");
  b.raw("[1, 2, broken");
  b.metadata({ customTitle: "Export fixture", aiTitle: "Fixing the parser" });
  const transcript = b.write(join(folder, `${b.sessionId}.jsonl`));

  const sub = new TranscriptBuilder({ cwd: options.cwd, sessionId: b.sessionId });
  sub.prompt("Find SUBAGENT-PROMPT uses");
  sub.tool("Grep", { pattern: "SUBAGENT-PROMPT" }, "src/a.ts:1");
  sub.text("Three uses, SUBAGENT-ANSWER.");
  const agents = join(folder, b.sessionId, "subagents");
  Deno.mkdirSync(agents, { recursive: true });
  const subagent = sub.write(join(agents, `agent-${agentId}.jsonl`));
  return { sessionId: b.sessionId, transcript, subagent, agentId };
}

import assert from "node:assert/strict";
import { createTestContext } from "./helpers/test_context.ts";
import { sessionId, writeTranscript } from "./helpers/claude_home.ts";
import { projectDirFor } from "../lib/core/paths.ts";
import { projectKey } from "../lib/core/project_key.ts";
import { findSessionCopies, sessionFilesFor, vaultFilesFor } from "../lib/core/session_copies.ts";

const GUID = sessionId(0x5c);

Deno.test("session files: where claude reads them, and the vault's mirror of that layout", () => {
  const t = createTestContext();
  try {
    const dir = `${t.home}/my project`;
    const files = sessionFilesFor(t.ctx.paths, { guid: GUID, dir });
    const folder = projectDirFor(t.ctx.paths, dir);
    assert.deepEqual(files, {
      folder,
      transcript: t.ctx.paths.path.join(folder, `${GUID}.jsonl`),
      sidecar: t.ctx.paths.path.join(folder, GUID),
    });
    const vault = vaultFilesFor(t.ctx.paths, { guid: GUID, dir });
    assert.equal(vault.folder, t.ctx.paths.path.join(t.ctx.paths.vaultDir, projectKey(dir)));
    assert.equal(vault.transcript, t.ctx.paths.path.join(vault.folder, `${GUID}.jsonl`));
  } finally {
    t.cleanup();
  }
});

Deno.test("session copies: every project folder holding the transcript, none for others", () => {
  const t = createTestContext();
  try {
    assert.deepEqual(findSessionCopies(t.ctx.paths, GUID), []);
    const a = writeTranscript(t.ctx.paths, `${t.home}/a`, GUID);
    const b = writeTranscript(t.ctx.paths, `${t.home}/b`, GUID);
    writeTranscript(t.ctx.paths, `${t.home}/c`, sessionId(0x5d));
    Deno.mkdirSync(`${projectDirFor(t.ctx.paths, `${t.home}/d`)}/${GUID}.jsonl`, {
      recursive: true,
    });
    const found = findSessionCopies(t.ctx.paths, GUID).map((copy) => copy.transcript).sort();
    assert.deepEqual(found, [a, b].sort());
  } finally {
    t.cleanup();
  }
});

import assert from "node:assert/strict";
import { join } from "node:path";
import { moveSessionAside } from "../lib/store/move_aside.ts";
import { resolvePaths, sessionBackupDir } from "../lib/core/paths.ts";
import { sessionId } from "./helpers/claude_home.ts";

Deno.test("a session's transcript and sidecar dir move aside, never overwriting", () => {
  const root = Deno.makeTempDirSync();
  try {
    const folder = join(root, "projects", "-p");
    const dest = join(root, "backup", "p");
    const guid = sessionId(1);
    Deno.mkdirSync(join(folder, guid, "subagents"), { recursive: true });
    Deno.writeTextFileSync(join(folder, `${guid}.jsonl`), "new");
    Deno.writeTextFileSync(join(folder, guid, "subagents", "agent-1.jsonl"), "sub");
    Deno.mkdirSync(dest, { recursive: true });
    Deno.writeTextFileSync(join(dest, `${guid}.jsonl`), "earlier copy");

    const moved = moveSessionAside(folder, guid, { destDir: dest, join });
    assert.equal(moved.transcript, join(dest, `${guid}.jsonl.1`));
    assert.equal(moved.sidecar, join(dest, guid));
    assert.equal(Deno.readTextFileSync(join(dest, `${guid}.jsonl`)), "earlier copy");
    assert.equal(Deno.readTextFileSync(join(dest, `${guid}.jsonl.1`)), "new");
    assert.equal(Deno.readTextFileSync(join(dest, guid, "subagents", "agent-1.jsonl")), "sub");
    assert.deepEqual([...Deno.readDirSync(folder)], []);

    const none = moveSessionAside(folder, sessionId(2), { destDir: dest, join });
    assert.deepEqual(none, { transcript: null, sidecar: null });
  } finally {
    Deno.removeSync(root, { recursive: true });
  }
});

Deno.test("a session's set-aside files go to backup/<folder leaf>/; a root folder's to backup/root/", () => {
  const posixPaths = resolvePaths((name) => ({ HOME: "/home/u" })[name], "linux");
  const windowsPaths = resolvePaths((name) => ({ USERPROFILE: "C:\\Users\\u" })[name], "windows");
  assert.equal(sessionBackupDir(posixPaths, "/src/app/"), "/home/u/.claudecm/backup/app");
  assert.equal(sessionBackupDir(posixPaths, "/"), "/home/u/.claudecm/backup/root");
  assert.equal(sessionBackupDir(windowsPaths, "C:\\"), "C:\\Users\\u\\.claudecm\\backup\\root");
  assert.equal(
    sessionBackupDir(windowsPaths, "D:\\src\\app"),
    "C:\\Users\\u\\.claudecm\\backup\\app",
  );
});

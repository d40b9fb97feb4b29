import assert from "node:assert/strict";
import { encodeProjectKey, MAX_KEY_LENGTH, projectKey } from "../lib/core/project_key.ts";
import { join } from "../lib/core/path.ts";
import { symlinkIfSupported } from "./helpers/portable.ts";

const LONG_PATH = "/home/user/" +
  Array.from({ length: 16 }, (_, i) => `segment-${String(i).padStart(2, "0")}_long.name`).join("/");

Deno.test("encodeProjectKey matches Claude Code on the spec's examples and edge paths", () => {
  const table: Array<[string, string]> = [
    ["C:\\Users\\alice\\projects\\my-app", "C--Users-alice-projects-my-app"],
    ["C:\\Users\\alice\\Documents\\Some App 8", "C--Users-alice-Documents-Some-App-8"],
    [
      "C:\\Users\\alice\\Documents\\GitHub\\WPF-Connector.Thing",
      "C--Users-alice-Documents-GitHub-WPF-Connector-Thing",
    ],
    ["/home/user/projects/foo", "-home-user-projects-foo"],
    ["/Users/jack.neil/Github/claude_jacked v2", "-Users-jack-neil-Github-claude-jacked-v2"],
    // One UTF-16 unit per char in the BMP, two for the emoji: each becomes a dash.
    ["/home/user/café ☕/日本", "-home-user-caf------"],
    ["/home/user/😀x", "-home-user---x"],
  ];
  for (const [path, key] of table) assert.equal(encodeProjectKey(path), key, path);
});

Deno.test("encodeProjectKey cuts keys over 200 chars and appends the base-36 Java hash", () => {
  assert.equal(LONG_PATH.length, 346);
  const key = encodeProjectKey(LONG_PATH);
  // Expected value computed independently (Python, UTF-16 Java String.hashCode).
  assert.equal(
    key,
    "-home-user-segment-00-long-name-segment-01-long-name-segment-02-long-name-segment-03-" +
      "long-name-segment-04-long-name-segment-05-long-name-segment-06-long-name-segment-07-" +
      "long-name-segment-08-long-name--yowh04",
  );
  assert.equal(key.length, MAX_KEY_LENGTH + "-yowh04".length);
});

Deno.test("encodeProjectKey keeps a key of exactly 200 chars uncut", () => {
  const path = "/" + "a".repeat(199);
  assert.equal(encodeProjectKey(path), "-" + "a".repeat(199));
});

Deno.test("projectKey resolves symlinks like Claude Code's realpath of the cwd", () => {
  const root = Deno.realPathSync(Deno.makeTempDirSync());
  try {
    Deno.mkdirSync(join(root, "real dir"));
    assert.equal(projectKey(join(root, "gone")), encodeProjectKey(join(root, "gone")));
    if (!symlinkIfSupported(join(root, "real dir"), join(root, "link"), "dir")) return;
    assert.equal(projectKey(join(root, "link")), encodeProjectKey(join(root, "real dir")));
  } finally {
    Deno.removeSync(root, { recursive: true });
  }
});

// Contract test of the CLAUDE_* variables the real CLI reads (issue 30 item
// 12): the names in its bundle's environment registry are exactly
// fixtures/claude-env-2.1.332.txt, for which lib/platform/claude_env.ts
// decides pass or strip; and what 2.1.332 itself deletes from its children's
// environment as one launch's state is stripped too. A claude that reads a
// new name fails here: decide it in claude_env.ts, then add it to the list.
// Ignored unless CLAUDECM_REAL_CLAUDE names the pinned CLI.
import assert from "node:assert/strict";
import { passesToClaude } from "../lib/platform/claude_env.ts";
import { bundleMatches, pinnedClaudeVariables } from "./helpers/claude_strings.ts";
import { REAL_CLAUDE } from "./helpers/real_claude.ts";

Deno.test({
  name: "real claude: the CLAUDE_* variables it reads are the pinned list, each decided",
  ignore: REAL_CLAUDE === undefined,
  fn: () => {
    const [registry, relaunch, names] = bundleMatches([
      /[,{]CLAUDE_[A-Z0-9_]*[A-Z0-9]:\(\)=>/g,
      /var [\w$]+=\["CLAUDE_CODE_SESSION_KIND"[^\]]*\]/g,
      /[\w$]{1,6}="CLAUDE_[A-Z0-9_]*[A-Z0-9]"/g,
    ]);
    const read = [...new Set(registry.map((m) => m.slice(1, m.indexOf(":"))))].sort();
    const pinned = pinnedClaudeVariables();
    assert.deepEqual(
      read.filter((name) => !pinned.includes(name)),
      [],
      "new variables: decide pass or strip in claude_env.ts and add them to the list",
    );
    assert.deepEqual(pinned.filter((name) => !read.includes(name)), [], "no longer read");
    // The launch state 2.1.332 removes from every child (its constants spelled out).
    const constants = new Map(names.map((m) => {
      const [name, value] = m.split("=");
      return [name, JSON.parse(value)];
    }));
    assert.equal(relaunch.length, 1, "one relaunch list");
    const listed = relaunch[0].slice(relaunch[0].indexOf("[") + 1, -1).split(",")
      .filter((item) => !item.startsWith("..."))
      .map((item) => item.startsWith('"') ? JSON.parse(item) : constants.get(item));
    assert.ok(listed.length > 25, listed.join(" "));
    for (const name of listed) {
      assert.equal(typeof name, "string");
      assert.equal(passesToClaude(name), false, `${name}: claude keeps it from its children`);
    }
  },
});

// Contract test of where the real CLI keeps a folder's transcripts (issue 30
// item 5): CLAUDE_CODE_PROJECT_DIR_NAME, taken only with CLAUDE_CONFIG_DIR
// set and only as a plain name, puts every project's transcripts in
// `projects/<name>/`; the root is CLAUDE_CONFIG_DIR in NFC. claudecm's one
// project-folder function (lib/core/paths.ts) must name the same file.
// Ignored unless CLAUDECM_REAL_CLAUDE names the pinned CLI.
import assert from "node:assert/strict";
import { resolvePaths, transcriptPathFor } from "../lib/core/paths.ts";
import { pathExists } from "../lib/core/fs_checks.ts";
import { bundleMatches } from "./helpers/claude_strings.ts";
import { createRealWorld, REAL_CLAUDE, type RealWorld, runReal } from "./helpers/real_claude.ts";

/** A printed session in `cwd` under `env`; returns where claudecm says its transcript is. */
async function printed(world: RealWorld, cwd: string, env: Record<string, string>) {
  const id = crypto.randomUUID();
  const run = await runReal(world, ["-p", "--session-id", id], { cwd, stdin: "hi\n", env });
  assert.equal(run.code, 1, `not logged in: ${run.stderr}`);
  const paths = resolvePaths((name) => ({ ...world.env, ...env })[name], "linux");
  return transcriptPathFor(paths, cwd, id);
}

Deno.test({
  name: "real claude: CLAUDE_CODE_PROJECT_DIR_NAME holds every project, and claudecm looks there",
  ignore: REAL_CLAUDE === undefined || Deno.build.os !== "linux",
  fn: async () => {
    const world = createRealWorld();
    try {
      const app = world.project("work/app");
      const other = world.project("work/other");
      const config = `${world.dir}/config`;
      const shared = { CLAUDE_CONFIG_DIR: config, CLAUDE_CODE_PROJECT_DIR_NAME: "shared" };
      for (const cwd of [app, other]) {
        const path = await printed(world, cwd, shared);
        assert.equal(path.startsWith(`${config}/projects/shared/`), true, path);
        assert.ok(pathExists(path), `claude wrote ${path}`);
      }
      // A name claude does not take, or no CLAUDE_CONFIG_DIR: the folder's own key.
      for (
        const env of <Record<string, string>[]> [
          { CLAUDE_CONFIG_DIR: config, CLAUDE_CODE_PROJECT_DIR_NAME: "a.b" },
          { CLAUDE_CONFIG_DIR: config, CLAUDE_CODE_PROJECT_DIR_NAME: "nul" },
          { CLAUDE_CODE_PROJECT_DIR_NAME: "shared" },
        ]
      ) {
        const path = await printed(world, app, env);
        assert.ok(!path.includes("/projects/shared/"), path);
        assert.ok(pathExists(path), `claude wrote ${path} (${JSON.stringify(env)})`);
      }
      // A CLAUDE_CONFIG_DIR in NFD: claude writes under its NFC form.
      const nfd = `${world.dir}/cafe\u0301`;
      const path = await printed(world, app, { CLAUDE_CONFIG_DIR: nfd });
      assert.ok(path.startsWith(`${world.dir}/caf\u00e9/projects/`), path);
      assert.ok(pathExists(path), `claude wrote ${path}`);
      assert.ok(!pathExists(`${nfd}/projects`), "no transcript under the NFD spelling");
      // Its .claude.json alone is under the spelling given, where paths.ts looks for it.
      const paths = resolvePaths(
        (name) => ({ ...world.env, CLAUDE_CONFIG_DIR: nfd })[name],
        "linux",
      );
      assert.equal(paths.claudeJsonFile, `${nfd}/.claude.json`);
      assert.ok(pathExists(paths.claudeJsonFile));
    } finally {
      world.cleanup();
    }
  },
});

Deno.test({
  name: "real claude: the CLAUDE_CODE_PROJECT_DIR_NAME rule paths.ts copies is the bundle's",
  ignore: REAL_CLAUDE === undefined,
  fn: () => {
    const [name, devices, root] = bundleMatches([
      /function [\w$]+\(\)\{return process\.env\.CLAUDE_CODE_PROJECT_DIR_NAME\}var [\w$]+=\/\^\[A-Za-z0-9_-\]\{1,64\}\$\//g,
      /\/\^\(\?:con\|prn\|aux\|nul\|com\[0-9\]\|lpt\[0-9\]\)\$\/i;function [\w$]+\([\w$]+\)\{if\(![\w$]+\|\|![\w$]+\.test/g,
      /\(process\.env\.CLAUDE_CONFIG_DIR\?\?[\w$]+\([\w$]+\(\),"\.claude"\)\)\.normalize\("NFC"\)|\([\w$]+\(\)\?\?[\w$]+\([\w$]+\(\),"\.claude"\)\)\.normalize\("NFC"\)/g,
    ]);
    assert.equal(name.length, 1, "the name's pattern");
    assert.equal(devices.length, 1, "the device names refused");
    assert.ok(root.length >= 1, "the root in NFC");
  },
});

/**
 * A launch world for `claudecm move`: a project `work/app` with sessions in
 * it and in `work/app/sub`, an unrelated `work/app-web` whose key shares
 * app's prefix, free-form registry lines, an archived row, a `memory/`
 * folder and a `.claude.json` with per-project entries. `moveAway()` does
 * the user's `mv work/app work/renamed`.
 *
 * @module
 */

import { join } from "node:path";
import { createLaunchWorld, type LaunchWorld } from "./launch_world.ts";
import { sessionId, writeTranscript } from "./claude_home.ts";
import { projectDirFor } from "../../lib/core/paths.ts";

/** The seeded world and its names. */
export interface MoveWorld extends LaunchWorld {
  old: string;
  sub: string;
  web: string;
  /** Where `moveAway` puts the folder. */
  renamed: string;
  /** Sessions: in OLD (registered), in OLD/sub (registered, with a sidecar), in app-web, in OLD (unregistered). */
  ids: { main: string; sub: string; web: string; loose: string; archived: string };
  registryText: string;
  claudeJsonText: string;
  /** `mv old renamed`. */
  moveAway(): void;
  /** The projects folder, registry and .claude.json as text, for end-state comparisons. */
  state(): string[];
}

/** Seed the world described in the module doc. */
export function createMoveWorld(options: { manySessions?: number } = {}): MoveWorld {
  const world = createLaunchWorld();
  const work = join(world.dir, "work");
  const old = join(work, "app");
  const sub = join(old, "sub");
  const web = join(work, "app-web");
  for (const dir of [sub, web]) Deno.mkdirSync(dir, { recursive: true });
  const ids = {
    main: sessionId(0x101),
    sub: sessionId(0x102),
    web: sessionId(0x103),
    loose: sessionId(0x104),
    archived: sessionId(0x105),
  };
  const paths = world.paths;
  const lines = (guid: string, cwd: string, n = 3) =>
    Array.from({ length: n }, (_, i) => ({
      type: i % 2 === 0 ? "user" : "assistant",
      sessionId: guid,
      cwd,
      uuid: `u-${guid.slice(-4)}-${i}`,
      timestamp: `2026-11-0${1 + (i % 9)}T10:00:00.000Z`,
      message: { role: "x", content: `line ${i} of ${guid} ü` },
    }));
  writeTranscript(paths, old, ids.main, { lines: lines(ids.main, old, 5) });
  writeTranscript(paths, sub, ids.sub, { lines: lines(ids.sub, sub) });
  writeTranscript(paths, web, ids.web, { lines: lines(ids.web, web) });
  writeTranscript(paths, old, ids.loose, { lines: lines(ids.loose, old) });
  for (let i = 0; i < (options.manySessions ?? 0); i++) {
    const guid = sessionId(0x1000 + i);
    writeTranscript(paths, i % 2 === 0 ? old : sub, guid, {
      lines: lines(guid, i % 2 === 0 ? old : sub, 40),
    });
  }
  const sidecar = join(projectDirFor(paths, sub), ids.sub, "subagents");
  Deno.mkdirSync(sidecar, { recursive: true });
  Deno.writeTextFileSync(join(sidecar, "agent-a1.jsonl"), '{"isSidechain":true}\n');
  const memory = join(projectDirFor(paths, old), "memory");
  Deno.mkdirSync(memory);
  Deno.writeTextFileSync(join(memory, "MEMORY.md"), "# notes\n");
  const registryText = `${ids.main}|${old}|Main work|1200\r\n` +
    "a note the user wrote by hand\n" +
    `${ids.sub}|${sub}/|Sub work|\n` +
    `${ids.web}|${web}|Web work|77\n` +
    "[archived]\n" +
    `${ids.archived}|${old}|Old idea|\n`;
  Deno.writeTextFileSync(paths.registryFile, registryText);
  const claudeJsonText = `{\n  "numStartups": 12,\n  "projects": {\n` +
    `    ${JSON.stringify(old)}: {"hasTrustDialogAccepted": true, "allowedTools": ["Bash"]},\n` +
    `    ${JSON.stringify(web)}: {"hasTrustDialogAccepted": false},\n` +
    `    ${JSON.stringify(sub)}: {\n      "allowedTools": []\n    }\n  },\n` +
    `  "userID": "abc\\u00e9"\n}\n`;
  Deno.writeTextFileSync(paths.claudeJsonFile, claudeJsonText);
  const renamed = join(work, "renamed");
  return {
    ...world,
    old,
    sub,
    web,
    renamed,
    ids,
    registryText,
    claudeJsonText,
    moveAway: () => Deno.renameSync(old, renamed),
    state: () => [
      ...fileTree(paths.projectsDir),
      Deno.readTextFileSync(paths.registryFile),
      Deno.readTextFileSync(paths.claudeJsonFile),
    ],
  };
}

/** Run `test` in a fresh move world with no cmv (post-exit then skips its cmv steps), then clean up. */
export async function inMoveWorld(test: (world: MoveWorld) => Promise<void>): Promise<void> {
  const world = createMoveWorld();
  try {
    world.env.CLAUDECM_CMV = `${world.dir}/no-cmv-here`;
    await test(world);
  } finally {
    world.cleanup();
  }
}

/** Claude's /cd of the main session: its transcript renamed into `to`'s key, with the `relocated` record or only a newer cwd. */
export function claudeMoved(world: MoveWorld, to: string, record: boolean): void {
  const source = join(projectDirFor(world.paths, world.old), `${world.ids.main}.jsonl`);
  const folder = projectDirFor(world.paths, to);
  Deno.mkdirSync(folder, { recursive: true });
  const target = join(folder, `${world.ids.main}.jsonl`);
  Deno.renameSync(source, target);
  const line = record
    ? { type: "relocated", sessionId: world.ids.main, relocatedCwd: to }
    : { type: "user", sessionId: world.ids.main, cwd: to, timestamp: "2026-11-30T10:00:00.000Z" };
  Deno.writeTextFileSync(target, JSON.stringify(line) + "\n", { append: true });
}

/** Every file under `root` with its content, relative, sorted (mtimes left out). */
export function fileTree(root: string): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of Deno.readDirSync(dir)) {
      const path = join(dir, entry.name);
      if (entry.isDirectory) walk(path);
      else found.push(`${path.slice(root.length)} ${Deno.readTextFileSync(path)}`);
    }
  };
  walk(root);
  return found.sort();
}

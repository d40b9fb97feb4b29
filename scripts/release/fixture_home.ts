/**
 * A home a release binary can be tried in: a temporary HOME (USERPROFILE on
 * Windows) with Claude Code's root inside, a saved machine name, a project
 * folder and two registered sessions whose transcripts mention
 * {@linkcode FIND_WORD}, and the environment that points the binary at it
 * and at nothing else of the machine's.
 *
 * @module
 */

import { join } from "../../lib/core/path.ts";
import { projectDirFor, resolvePaths } from "../../lib/core/paths.ts";
import { sleepSync } from "../../lib/core/sleep_sync.ts";
import { TranscriptBuilder } from "../../fixtures/transcripts/builder.ts";

/** A word only the fixture's first session's transcript holds. */
export const FIND_WORD = "zebracorn";

/** The fixture's sessions, in list order. */
export const FIXTURE_SESSIONS: ReadonlyArray<{ id: string; desc: string; prompt: string }> = [
  {
    id: "5a0ce000-0000-4000-8000-000000000001",
    desc: "Smoke billing",
    prompt: `Find the ${FIND_WORD} in the billing code.`,
  },
  {
    id: "5a0ce000-0000-4000-8000-000000000002",
    desc: "Smoke docs",
    prompt: "Tidy the docs.",
  },
];

/** A fixture home and the environment to run claudecm in it. */
export interface FixtureHome {
  /** The temporary folder holding everything. */
  root: string;
  home: string;
  /** The registered sessions' folder (a realpath). */
  project: string;
  /** A complete environment for the binary: this home, a minimal PATH, no colour. */
  env: Record<string, string>;
  cleanup(): void;
}

/** The variables a Windows process needs to start others (cmd.exe for a `.cmd`). */
const WINDOWS_PASS = ["SystemRoot", "ComSpec", "PATHEXT", "TEMP", "TMP", "windir"];

/** Build a fixture home in a new temporary folder. */
export function createFixtureHome(): FixtureHome {
  const root = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "claudecm-release-smoke-" }));
  const home = join(root, "home");
  const project = join(root, "project");
  Deno.mkdirSync(home);
  Deno.mkdirSync(project);
  const env: Record<string, string> = {
    HOME: home,
    USERPROFILE: home,
    CLAUDE_CONFIG_DIR: join(home, ".claude"),
    NO_COLOR: "1",
    TMPDIR: root,
  };
  // `deno run main.ts` (the tests' stand-in for a binary) keeps its code cache where it was.
  const denoDir = Deno.env.get("DENO_DIR");
  if (denoDir !== undefined) env.DENO_DIR = denoDir;
  if (Deno.build.os === "windows") {
    for (const name of WINDOWS_PASS) {
      const value = Deno.env.get(name);
      if (value !== undefined) env[name] = value;
    }
    const system = env.SystemRoot ?? "C:\\Windows";
    env.PATH = `${system}\\system32;${system}`;
  } else {
    env.PATH = "/usr/bin:/bin";
  }
  const paths = resolvePaths((name) => env[name], Deno.build.os);
  Deno.mkdirSync(paths.cmHome, { recursive: true });
  // A saved machine name: the smoke test is about the binary, not the first-run question.
  Deno.writeTextFileSync(paths.machineNameFile, "smoke\n");
  const folder = projectDirFor(paths, project);
  Deno.mkdirSync(folder, { recursive: true });
  for (const session of FIXTURE_SESSIONS) {
    new TranscriptBuilder({ sessionId: session.id, cwd: project })
      .prompt(session.prompt)
      .text("Done.")
      .turnEnd()
      .write(join(folder, `${session.id}.jsonl`));
  }
  Deno.writeTextFileSync(
    paths.registryFile,
    FIXTURE_SESSIONS.map((s) => `${s.id}|${project}|${s.desc}|1000\n`).join(""),
  );
  return { root, home, project, env, cleanup: () => removeWhenFree(root) };
}

/** Remove `dir`; on Windows a process that has just exited may hold a file a moment longer. */
function removeWhenFree(dir: string): void {
  for (let attempt = 0;; attempt++) {
    try {
      Deno.removeSync(dir, { recursive: true });
      return;
    } catch (error) {
      if (Deno.build.os !== "windows" || attempt >= 50) throw error;
      sleepSync(100);
    }
  }
}

/**
 * A test's world: a temporary HOME (with CLAUDE_CONFIG_DIR inside it), an
 * AppContext pointing there, scripted prompt answers and captured output.
 * Tests never touch the real HOME.
 *
 * @module
 */

import type { AppContext } from "../../lib/app/context.ts";
import { join } from "../../lib/core/path.ts";
import { resolvePaths } from "../../lib/core/paths.ts";
import { createTools, type Tools } from "../../lib/platform/tools.ts";
import { createMemoryOutput } from "../../lib/ui/output.ts";
import { createScriptedPrompter } from "../../lib/ui/prompt.ts";

/** Options for {@linkcode createTestContext}. */
export interface TestContextOptions {
  /** Answers the prompter gives, in order; null after they run out. */
  answers?: string[];
  /** Extra environment variables. */
  env?: Record<string, string>;
  /** The cwd flows see; defaults to `<home>/project`, created. */
  cwd?: string;
  /** The clock; defaults to 2026-11-30 12:00 local time. */
  now?: Date;
  interactive?: boolean;
  /** Stub tools; by default the real adapters, found through `env` (see helpers/fakes.ts). */
  tools?: Tools;
}

/** A test context plus what it captured. */
export interface TestContext {
  ctx: AppContext;
  home: string;
  env: Record<string, string>;
  stdout: () => string;
  stderr: () => string;
  questions: string[];
  /** Remove the temporary HOME. */
  cleanup: () => void;
}

/** Build a context over a fresh temporary HOME. */
export function createTestContext(options: TestContextOptions = {}): TestContext {
  const home = Deno.makeTempDirSync({ prefix: "claudecm-test-" });
  const env: Record<string, string> = {
    HOME: home,
    USERPROFILE: home,
    CLAUDE_CONFIG_DIR: join(home, ".claude"),
    ...options.env,
  };
  const cwd = options.cwd ?? join(home, "project");
  Deno.mkdirSync(cwd, { recursive: true });
  const out = createMemoryOutput();
  const err = createMemoryOutput();
  const prompter = createScriptedPrompter(options.answers ?? []);
  const paths = resolvePaths((name) => env[name], Deno.build.os);
  const ctx: AppContext = {
    paths,
    env: (name) => env[name],
    setEnv: (name, value) => env[name] = value,
    childEnv: () => ({ ...env }),
    os: Deno.build.os,
    cwd: () => cwd,
    now: () => options.now ?? new Date(2026, 10, 30, 12, 0, 0),
    hostname: () => "testhost",
    out,
    err,
    prompter,
    interactive: options.interactive ?? true,
    keyboard: options.interactive ?? true,
    tools: options.tools ?? createTools({
      env: (name) => env[name],
      childEnv: () => ({ ...env }),
      cwd: () => cwd,
      os: Deno.build.os,
      paths,
    }),
  };
  return {
    ctx,
    home,
    env,
    stdout: out.text,
    stderr: err.text,
    questions: prompter.questions,
    cleanup: () => Deno.removeSync(home, { recursive: true }),
  };
}

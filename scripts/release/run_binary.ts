/**
 * Run a claudecm binary (or any program) with exactly the environment given,
 * its output collected, ended if it runs past a time limit.
 *
 * @module
 */

/** What a run printed and how it ended. */
export interface BinaryRun {
  code: number;
  stdout: string;
  stderr: string;
  /** Wall-clock time from spawn to exit. */
  ms: number;
}

/** Options for {@linkcode runBinary}. */
export interface RunBinaryOptions {
  /** The whole environment: nothing of this process's is passed on. */
  env: Record<string, string>;
  cwd?: string;
  /** Text piped to stdin, then closed; stdin is null otherwise. */
  stdin?: string;
  /** Ended (and reported as exit 124) past this; 120 s by default. */
  timeoutMs?: number;
}

/** Run `bin ...args`; returns its exit code, output and time. */
export async function runBinary(
  bin: string,
  args: string[],
  options: RunBinaryOptions,
): Promise<BinaryRun> {
  const started = performance.now();
  const child = new Deno.Command(bin, {
    args,
    env: options.env,
    clearEnv: true,
    cwd: options.cwd,
    stdin: options.stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  if (options.stdin !== undefined) {
    const writer = child.stdin.getWriter();
    try {
      await writer.write(new TextEncoder().encode(options.stdin));
      await writer.close();
    } catch {
      // It exited without reading its input: its exit code and output say the rest.
    }
  }
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    child.kill("SIGKILL");
  }, options.timeoutMs ?? 120_000);
  const output = await child.output();
  clearTimeout(timer);
  const decoder = new TextDecoder();
  return {
    code: timedOut ? 124 : output.code,
    stdout: decoder.decode(output.stdout),
    stderr: decoder.decode(output.stderr),
    ms: performance.now() - started,
  };
}

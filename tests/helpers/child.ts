/**
 * What every test subprocess needs: the few inherited variables a child
 * needs to start at all, Deno's cache kept outside the temporary HOME, and
 * collecting a child's output after feeding its stdin.
 *
 * @module
 */

/** Variables a child needs to start at all on some OS; everything else is the test's choice. */
const PASSED_THROUGH = [
  "PATH",
  "SystemRoot",
  "SYSTEMROOT",
  "ComSpec",
  "PATHEXT",
  "TEMP",
  "TMP",
  "TMPDIR",
];

let cachedDenoDir: string | undefined;

/**
 * The base environment of a test's child: the inherited start-up variables
 * and DENO_DIR set to the running tests' own cache, so a child neither
 * builds a second cache inside the temporary HOME nor recompiles.
 */
export function childBaseEnv(): Record<string, string> {
  const env: Record<string, string> = { DENO_DIR: denoDir() };
  for (const name of PASSED_THROUGH) {
    const value = Deno.env.get(name);
    if (value !== undefined) env[name] = value;
  }
  return env;
}

/** What a finished child printed and how it ended. */
export interface ChildOutput {
  code: number;
  signal: Deno.Signal | null;
  stdout: string;
  stderr: string;
}

/** Write `stdin` (when given; the child must have stdin "piped"), close it, and collect the output. */
export async function collectOutput(
  child: Deno.ChildProcess,
  stdin?: string,
): Promise<ChildOutput> {
  if (stdin !== undefined) {
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(stdin));
    await writer.close();
  }
  const output = await child.output();
  const decoder = new TextDecoder();
  return {
    code: output.code,
    signal: output.signal,
    stdout: decoder.decode(output.stdout),
    stderr: decoder.decode(output.stderr),
  };
}

function denoDir(): string {
  if (cachedDenoDir !== undefined) return cachedDenoDir;
  const fromEnv = Deno.env.get("DENO_DIR");
  if (fromEnv) return cachedDenoDir = fromEnv;
  // `deno info` has once printed nothing under a loaded parallel run: ask again before failing.
  let said = "";
  for (let attempt = 0; attempt < 3; attempt++) {
    const output = new Deno.Command(Deno.execPath(), { args: ["info", "--json"] }).outputSync();
    const text = new TextDecoder().decode(output.stdout);
    try {
      return cachedDenoDir = JSON.parse(text).denoDir as string;
    } catch {
      said = `${text}${new TextDecoder().decode(output.stderr)}`;
    }
  }
  throw new Error(`deno info --json did not say where Deno's cache is: ${said}`);
}

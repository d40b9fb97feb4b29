/**
 * The old scripts' grammar, kept working as aliases of the canonical
 * commands (DESIGN.md section 1, spec 11.1-11.4).
 *
 * @module
 */

/** Canonical subcommands: a first argument naming one of these is already canonical. */
export const CANONICAL_COMMANDS = [
  "list",
  "resume",
  "search",
  "new",
  "recover",
  "rescue",
  "recall",
  "skeleton",
  "doctor",
  "find",
  "adopt",
  "skill",
  "help",
] as const;

const OWN_FLAGS = new Set(["-h", "--help", "-V", "--version"]);

/**
 * Rewrite an old-style command line into the canonical one:
 * bare, `l`, `L`, `-l`, `-L` → `list`; `N` → `resume N`; `-s`/`-S TERM` →
 * `search TERM`; `n`/`N`, `--proj DIR` and anything else → `new`, with every
 * argument other than `--proj DIR` passed through to claude.
 */
export function translateLegacyArgs(args: readonly string[]): string[] {
  const [first, ...rest] = args;
  if (first === undefined || ["l", "L", "-l", "-L"].includes(first)) return ["list", ...rest];
  if (/^\d+$/.test(first)) return ["resume", ...args];
  if (first === "-s" || first === "-S") return ["search", ...rest];
  if ((CANONICAL_COMMANDS as readonly string[]).includes(first) || OWN_FLAGS.has(first)) {
    return [...args];
  }
  return translateNormalMode(first === "n" || first === "N" ? rest : args);
}

/** Spec 11.3: `--proj DIR` is ours wherever it stands; the rest goes to claude. */
function translateNormalMode(args: readonly string[]): string[] {
  const own: string[] = [];
  const passThrough: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === "--proj" && i + 1 < args.length) {
      own.push("--proj", args[++i]);
    } else {
      passThrough.push(args[i]);
    }
  }
  return passThrough.length > 0 ? ["new", ...own, "--", ...passThrough] : ["new", ...own];
}

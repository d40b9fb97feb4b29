/**
 * The old scripts' grammar, kept working as aliases of the canonical
 * commands (DESIGN.md section 1, spec 11.1-11.4).
 *
 * The old scripts prompted on whatever stdin was, a terminal or a pipe, so
 * their list and search forms translate to `list --interactive` and
 * `search --interactive`. The canonical `list` and `search` prompt only when
 * stdin is a terminal (or with `--interactive`), and print a table otherwise.
 *
 * @module
 */

/** Canonical subcommands: a first argument naming one of these is already canonical. */
const CANONICAL_COMMANDS = [
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
  "vault",
  "restore",
  "help",
] as const;

const OWN_FLAGS = new Set(["-h", "--help", "-V", "--version"]);
const LIST_FORMS = new Set(["l", "L", "-l", "-L"]);

/**
 * Rewrite an old-style command line into the canonical one:
 * bare, `l`, `L`, `-l`, `-L` → `list --interactive`; `N` → `resume N`;
 * `-s`/`-S TERM...` → `search --interactive -- "TERM..."` (no term: `search
 * --interactive`, which prints the usage); `n`/`N`, `--proj DIR` and anything
 * else → `new`, with every argument other than `--proj DIR` passed through
 * to claude. Arguments after a list form or a number are ignored, as the old
 * scripts ignored them.
 */
export function translateLegacyArgs(args: readonly string[]): string[] {
  const [first, ...rest] = args;
  if (first === undefined || LIST_FORMS.has(first)) return ["list", "--interactive"];
  if (/^\d+$/.test(first)) return ["resume", first];
  if (first === "-s" || first === "-S") {
    // `claudecm -s my app` means the name "my app", quoted or not.
    const term = rest.join(" ");
    return term === "" ? ["search", "--interactive"] : ["search", "--interactive", "--", term];
  }
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

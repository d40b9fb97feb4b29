/**
 * `claudecm completions bash|zsh|fish|powershell`: print a completion
 * script made from the command table, and `claudecm __complete sessions`,
 * the hidden entry point those scripts ask for session numbers.
 *
 * @module
 */

import { defineCommand, InvalidValueError } from "./command.ts";
import { ExitCode } from "../core/errors.ts";

/** The shells, as `completions --help` and its refusal name them (completion_scripts.ts SHELLS). */
const SHELL_NAMES = ["bash", "zsh", "fish", "powershell"] as const;

/** `completions`. */
export const completionsCommand = defineCommand({
  arguments: [{
    name: "<shell>",
    description: "bash, zsh, fish or powershell",
    choices: SHELL_NAMES,
    parse: (value: string): string => {
      if ((SHELL_NAMES as readonly string[]).includes(value)) return value;
      throw new InvalidValueError(
        `no completions for '${value}': the shells are bash, zsh, fish and powershell`,
        { whole: true },
      );
    },
  }],
  helpAfter: "\nCompletes commands, each command's options, the values of options that take a\n" +
    "few, folders, and sessions by their number in the list (with their names, where\n" +
    "the shell shows descriptions). To enable them:\n" +
    '  bash        add  eval "$(claudecm completions bash)"  to ~/.bashrc\n' +
    '  zsh         add  eval "$(claudecm completions zsh)"  to ~/.zshrc, after compinit\n' +
    "  fish        claudecm completions fish > ~/.config/fish/completions/claudecm.fish\n" +
    "  powershell  add  claudecm completions powershell | Out-String | Invoke-Expression\n" +
    "              to $PROFILE\n" +
    "Exit codes: 0 ok, 2 usage error (an unknown shell).\n",
  run: async (input) => {
    const [{ completionModel }, { completionScript }, { commandTable }, { PROGRAM }] = await Promise
      .all([
        import("./completion_model.ts"),
        import("./completion_scripts.ts"),
        import("./commands.ts"),
        import("./program.ts"),
      ]);
    const model = completionModel(PROGRAM, await commandTable());
    const shell = input.argText("shell") as typeof SHELL_NAMES[number];
    await writeAll(completionScript(shell, model));
    return ExitCode.ok;
  },
});

/**
 * `__complete sessions`: `N<TAB>name` for each session of the list;
 * `__complete archived`: the same for the archived list. Hidden.
 */
export const completeCommand = defineCommand({
  arguments: [{ name: "<what>", description: "sessions or archived" }],
  run: async (input) => {
    const what = input.argText("what");
    if (what !== "sessions" && what !== "archived") return ExitCode.usage;
    const [{ sessionCompletions }, { hostOs }] = await Promise.all([
      import("../app/session/session_completions.ts"),
      import("../platform/os.ts"),
    ]);
    const list = what === "archived" ? "archived" : "main";
    await writeAll(sessionCompletions(Deno.env.toObject(), hostOs, { list }));
    return ExitCode.ok;
  },
});

async function writeAll(text: string): Promise<void> {
  const bytes = new TextEncoder().encode(text);
  let written = 0;
  while (written < bytes.length) written += await Deno.stdout.write(bytes.subarray(written));
}

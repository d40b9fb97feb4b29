/**
 * Windows command lines, built by hand where Deno cannot build them for us.
 *
 * A Windows process receives one command-line string, which the program
 * splits itself (CommandLineToArgvW / the MSVC CRT rules). Deno quotes
 * arguments by those rules when it starts an `.exe`, so claude.exe needs
 * nothing from here. A `.cmd` script is different: cmd.exe parses the line
 * first, where `& | < > ^ %` and quotes have their own meaning, and an npm
 * shim such as `cmv.cmd` then hands its arguments (`%*`) through a second
 * cmd parse to node. So a `.cmd` is run as `cmd.exe /d /s /c "<line>"` with
 * `windowsRawArguments`, and {@linkcode buildCmdCommandLine} writes `<line>`:
 * every argument quoted by the CRT rules, then every cmd metacharacter
 * (quotes included) caret-escaped once per cmd parse, so cmd never enters a
 * quoted state and passes each character through literally. `/d` skips
 * AutoRun commands; `/s` makes cmd strip exactly the outer quotes. A line
 * break cannot survive cmd at all, so such an argument is refused.
 *
 * @module
 */

import { UserError } from "../core/errors.ts";

/** Characters cmd.exe treats specially (the set cross-spawn escapes). */
const CMD_META = /([()\][%!^"`<>&|;, *?])/g;

/** Options for {@linkcode quoteWindowsArg}. */
export interface QuoteOptions {
  /** Quote even when the argument needs no quotes. */
  always?: boolean;
}

/**
 * Quote one argument so CommandLineToArgvW (and the MSVC CRT) read it back
 * unchanged: backslashes are literal except before a quote, where they are
 * doubled, and an embedded quote is backslash-escaped.
 */
export function quoteWindowsArg(arg: string, options: QuoteOptions = {}): string {
  if (!options.always && arg !== "" && !/[\s"]/.test(arg)) return arg;
  let quoted = '"';
  let backslashes = 0;
  for (const char of arg) {
    if (char === "\\") {
      backslashes++;
      continue;
    }
    quoted += char === '"'
      ? "\\".repeat(backslashes * 2 + 1) + '"'
      : "\\".repeat(backslashes) + char;
    backslashes = 0;
  }
  return quoted + "\\".repeat(backslashes * 2) + '"';
}

/** Arguments joined into one command line by the CRT rules. */
export function buildWindowsCommandLine(args: string[]): string {
  return args.map((arg) => quoteWindowsArg(arg)).join(" ");
}

/**
 * Split a command line's arguments as the MSVC CRT (2008 and later) does:
 * `2n` backslashes before a quote give `n` and toggle quoting, `2n+1` give
 * `n` and a literal quote, `""` inside quotes is a literal quote. The inverse
 * of {@linkcode buildWindowsCommandLine}; the tests check the round trip.
 */
export function parseWindowsCommandLine(line: string): string[] {
  const args: string[] = [];
  let current = "";
  let inArg = false;
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const char = line[i];
    if (char === "\\") {
      let count = 0;
      while (line[i] === "\\") {
        count++;
        i++;
      }
      if (line[i] === '"') {
        current += "\\".repeat(Math.floor(count / 2));
        if (count % 2 === 1) current += '"';
        else i--;
      } else {
        current += "\\".repeat(count);
        i--;
      }
      inArg = true;
    } else if (char === '"') {
      if (quoted && line[i + 1] === '"') {
        current += '"';
        i++;
      } else {
        quoted = !quoted;
      }
      inArg = true;
    } else if ((char === " " || char === "\t") && !quoted) {
      if (inArg) args.push(current);
      current = "";
      inArg = false;
    } else {
      current += char;
      inArg = true;
    }
  }
  if (inArg) args.push(current);
  return args;
}

/** Options for {@linkcode quoteCmdArg}. */
export interface CmdQuoteOptions {
  /**
   * Escape for two cmd parses: true (the default) for `.cmd` shims that pass
   * `%*` on to another program, which is what npm shims and our fakes do.
   */
  doubleEscape?: boolean;
}

/** One argument for a command line that cmd.exe parses before the script sees it. */
export function quoteCmdArg(arg: string, options: CmdQuoteOptions = {}): string {
  if (/[\r\n\0]/.test(arg)) {
    throw new UserError(
      `cannot pass an argument with a line break to a .cmd script on Windows: ${
        JSON.stringify(arg.slice(0, 40))
      }`,
    );
  }
  let escaped = quoteWindowsArg(arg, { always: true }).replace(CMD_META, "^$1");
  if (options.doubleEscape ?? true) escaped = escaped.replace(CMD_META, "^$1");
  return escaped;
}

/**
 * The line `cmd.exe /d /s /c "<line>"` runs to start `script` with `args`:
 * the script's path caret-escaped (a quote would not survive the escaping
 * scheme), each argument through {@linkcode quoteCmdArg}.
 */
export function buildCmdCommandLine(
  script: string,
  args: string[],
  options: CmdQuoteOptions = {},
): string {
  if (/[\r\n\0"]/.test(script)) {
    throw new UserError(`cannot run a .cmd script whose path has a quote or line break: ${script}`);
  }
  return [script.replace(CMD_META, "^$1"), ...args.map((arg) => quoteCmdArg(arg, options))].join(
    " ",
  );
}

/** Whether Windows runs this file through cmd.exe. */
export function isBatchScript(path: string): boolean {
  return /\.(cmd|bat)$/i.test(path);
}

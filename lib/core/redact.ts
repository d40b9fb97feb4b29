/**
 * Secret-shaped strings an export replaces with `[redacted]` when asked
 * (`export --redact`): API keys of the common providers, private-key blocks,
 * `Authorization:` header values and the password of a URL. One pattern of
 * alternatives, so a text is searched once whatever the number of shapes;
 * each match is counted, so the user is told how many were replaced.
 *
 * @module
 */

/** What replaces a secret. */
export const REDACTED = "[redacted]";

/** `word` matched in any case: `[Aa][Bb]...` (the one pattern has no flag for a part of it). */
function anyCase(word: string): string {
  return [...word].map((char) =>
    /[a-z]/i.test(char) ? `[${char.toUpperCase()}${char.toLowerCase()}]` : char
  ).join("");
}

/**
 * The shapes, most specific first (an Anthropic key also starts with `sk-`).
 * A group named `keep` is a prefix left in place (the header's name, the
 * URL's scheme and user); what follows it is never `[redacted]` already, so
 * redacting a text twice replaces and counts nothing the second time.
 */
const SHAPES: readonly string[] = [
  // Private keys: PEM and OpenSSH blocks, whole; a block cut short (head, a truncated tool
  // output) to the end of its key lines, with real or `\n`-escaped line breaks. The END line is
  // looked for within 16 KiB (an 8192-bit RSA key is under 7): a BEGIN without one costs no more.
  String
    .raw`-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----(?:[\s\S]{0,16384}?-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|(?:(?:\r?\n|\\n)+(?:[A-Za-z0-9+/=]+|Proc-Type:[^\r\n]*|DEK-Info:[^\r\n]*))*)`,
  // Anthropic: sk-ant-api03-..., sk-ant-admin01-...
  String.raw`\bsk-ant-[A-Za-z0-9_-]{20,}`,
  // OpenAI: sk-..., sk-proj-..., sk-svcacct-...
  String.raw`\bsk-(?:proj-|svcacct-|admin-|None-)?[A-Za-z0-9_-]{20,}`,
  // GitHub: classic tokens and fine-grained PATs.
  String.raw`\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{22,})`,
  // AWS: access key ids, and a secret key after its usual names (its JSON's too).
  String.raw`\b(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}\b`,
  String
    .raw`(?<keep>(?:aws_secret_access_key|AWS_SECRET_ACCESS_KEY|[Ss]ecretAccessKey)["']?\s*[:=]\s*["']?)[A-Za-z0-9/+=]{40}`,
  // Slack: bot, user and refresh tokens (xox*), app-level tokens (xapp-) and webhook URLs.
  String.raw`\bx(?:ox[abposre]|app)-[A-Za-z0-9-]{10,}`,
  String.raw`https://hooks\.slack\.com/services/[A-Za-z0-9/_-]+`,
  // Google: API keys and OAuth access tokens.
  String.raw`\bAIza[0-9A-Za-z_-]{35,}`,
  String.raw`\bya29\.[0-9A-Za-z_-]{20,}`,
  // An Authorization header's value, to the end of its line or quote: as a header (in any case)
  // and as code writes one (a JSON object, a dict: the name quoted, the value quoted).
  String
    .raw`(?<keep>\b(?:${anyCase("proxy-")})?${
    anyCase("authorization")
  }["']?\s*:\s*["']?)(?!\s*["']?\[redacted\])[^\r\n"'\\]+`,
  // scheme://user:password@host: the password (the user may be empty: redis://:password@host).
  String.raw`(?<keep>\b[A-Za-z][A-Za-z0-9+.-]*://[^\s:/@"'<>]*:)(?!\[redacted\]@)[^\s@/"'<>]+(?=@)`,
];

const PATTERN_SOURCE = SHAPES.map((shape, i) => `(?:${shape.replaceAll("?<keep>", `?<keep${i}>`)})`)
  .join("|");

/** Counts replacements across every text one export redacts. */
export class Redactor {
  /** How many secrets were replaced so far. */
  count = 0;
  readonly #pattern = new RegExp(PATTERN_SOURCE, "g");

  /** `text` with every secret-shaped string replaced by {@linkcode REDACTED}. */
  redact(text: string): string {
    return text.replace(this.#pattern, (...args) => {
      this.count++;
      const groups = args.at(-1) as Record<string, string | undefined>;
      const keep = Object.values(groups).find((value) => value !== undefined) ?? "";
      return keep + REDACTED;
    });
  }
}

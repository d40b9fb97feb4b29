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

/**
 * The shapes, most specific first (an Anthropic key also starts with `sk-`).
 * A group named `keep` is a prefix left in place (the header's name, the
 * URL's scheme and user).
 */
const SHAPES: readonly string[] = [
  // Private keys: PEM and OpenSSH blocks, whole.
  String
    .raw`-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----`,
  // Anthropic: sk-ant-api03-..., sk-ant-admin01-...
  String.raw`\bsk-ant-[A-Za-z0-9_-]{20,}`,
  // OpenAI: sk-..., sk-proj-..., sk-svcacct-...
  String.raw`\bsk-(?:proj-|svcacct-|admin-|None-)?[A-Za-z0-9_-]{20,}`,
  // GitHub: classic tokens and fine-grained PATs.
  String.raw`\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{22,})`,
  // AWS: access key ids, and a secret key after its usual name.
  String.raw`\b(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}\b`,
  String
    .raw`(?<keep>(?:aws_secret_access_key|AWS_SECRET_ACCESS_KEY)["']?\s*[:=]\s*["']?)[A-Za-z0-9/+=]{40}`,
  // Slack: bot, user, app tokens and webhook URLs.
  String.raw`\bxox[abposre]-[A-Za-z0-9-]{10,}`,
  String.raw`https://hooks\.slack\.com/services/[A-Za-z0-9/_-]+`,
  // Google: API keys and OAuth access tokens.
  String.raw`\bAIza[0-9A-Za-z_-]{35,}`,
  String.raw`\bya29\.[0-9A-Za-z_-]{20,}`,
  // An Authorization header's value, to the end of its line or quote.
  String.raw`(?<keep>\b(?:[Pp]roxy-)?[Aa]uthorization\s*:\s*)[^\r\n"'\\]+`,
  // scheme://user:password@host: the password.
  String.raw`(?<keep>\b[A-Za-z][A-Za-z0-9+.-]*://[^\s:/@"'<>]+:)[^\s@/"'<>]+(?=@)`,
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

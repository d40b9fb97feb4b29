/**
 * What `claudecm doctor` finds: each check's status and the findings (a
 * problem or a warning, with what to do) that decide it. Shared by the
 * checks, the flow and the view.
 *
 * @module
 */

/** How a check came out. */
export type CheckStatus = "ok" | "warning" | "problem";

/** What a finding is about: a check, or (transcripts, folders) a part of the registry check. */
export type Section =
  | "claude"
  | "cmv"
  | "settings"
  | "registry"
  | "transcripts"
  | "folders"
  | "runAs"
  | "forecast"
  | "permissions"
  | "tempFiles";

/** Something wrong, with what to do about it. */
export interface Finding {
  section: Section;
  severity: "warning" | "problem";
  message: string;
}

/** Records a finding of one section. */
export type AddFinding = (severity: Finding["severity"], message: string) => void;

/** The worst severity among the findings of `sections`. */
export function statusOf(findings: Finding[], ...sections: Section[]): CheckStatus {
  const own = findings.filter((f) => sections.includes(f.section));
  if (own.some((f) => f.severity === "problem")) return "problem";
  return own.length > 0 ? "warning" : "ok";
}

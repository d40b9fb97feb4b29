/**
 * Sessions' families: the sessions linked by the steps that made one out of
 * another, grouped (connected components) and laid out as a tree from their
 * roots. Pure: the links come from claude's records and claudecm's log
 * (lib/app/tree/family_links.ts), the layout goes to a view.
 *
 * @module
 */

import { compareText } from "./compare_text.ts";

/** What made `to` out of `from`, and who recorded it. */
export type LinkType =
  /** claude's `/branch` copied the conversation (`forkedFrom` on the copied lines). */
  | "branch"
  /** claude went on in another session (`continued-in`). */
  | "continued-in"
  /** a subagent forked the session's context (`fork-context-ref`). */
  | "subagent-fork"
  /** claude continued the session under a new id and the row followed (claudecm). */
  | "fork"
  /** `--fork-session` made a branch with a row of its own (claudecm). */
  | "fork-session"
  | "refresh"
  | "trim";

/** A typed edge. */
export interface FamilyLink {
  from: string;
  to: string;
  type: LinkType;
  /** `claude` (its own transcript records) or `claudecm` (its lineage log). */
  recordedBy: "claude" | "claudecm";
  /** When claudecm recorded it. */
  at?: string;
}

/** A node of a laid-out tree: a session and the links down to its children. */
export interface TreeRow {
  id: string;
  /** Nesting depth, 0 for a root. */
  depth: number;
  /** The link from the parent (absent at a root). */
  via?: LinkType;
  /** Shown already under another parent: its children are not repeated. */
  repeated: boolean;
  /** Whether it is its parent's last child (for the connectors). */
  last: boolean;
  /** For each ancestor level, whether that ancestor was its parent's last child. */
  ancestorsLast: boolean[];
}

/** Links without duplicates (the same pair and type recorded twice), in order. */
export function uniqueLinks(links: readonly FamilyLink[]): FamilyLink[] {
  const seen = new Set<string>();
  return links.filter((link) => {
    const key = `${link.from} ${link.to} ${link.type}`;
    if (link.from === link.to || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** The families: each a set of session ids linked together, in order of first appearance. */
export function familiesOf(links: readonly FamilyLink[]): string[][] {
  const parent = new Map<string, string>();
  const find = (id: string): string => {
    let root = id;
    while (parent.get(root) !== root) root = parent.get(root)!;
    parent.set(id, root);
    return root;
  };
  const add = (id: string) => {
    if (!parent.has(id)) parent.set(id, id);
  };
  for (const link of links) {
    add(link.from);
    add(link.to);
    const a = find(link.from);
    const b = find(link.to);
    if (a !== b) parent.set(b, a);
  }
  const groups = new Map<string, string[]>();
  for (const id of parent.keys()) {
    const root = find(id);
    groups.set(root, [...groups.get(root) ?? [], id]);
  }
  return [...groups.values()];
}

/** How a link made its child, in the order children are shown. */
const KIND_ORDER: readonly LinkType[] = [
  "branch",
  "continued-in",
  "subagent-fork",
  "fork",
  "fork-session",
  "refresh",
  "trim",
];

/**
 * Children grouped by how they were made, then by when claudecm recorded
 * them, then by id: the same order on every OS, whatever order the
 * folders were read in.
 */
function byKindThenTime(a: FamilyLink, b: FamilyLink): number {
  return KIND_ORDER.indexOf(a.type) - KIND_ORDER.indexOf(b.type) ||
    compareText(a.at ?? "", b.at ?? "") || compareText(a.to, b.to);
}

/**
 * The family of `members` laid out from its roots (members no link leads
 * to; the first member when every one has a parent, as in a cycle), each
 * child under its first parent, once; a second parent shows it again as
 * `repeated`. Children come in {@linkcode byKindThenTime} order.
 */
export function layOut(members: readonly string[], links: readonly FamilyLink[]): TreeRow[] {
  const inFamily = new Set(members);
  const own = links.filter((link) => inFamily.has(link.from) && inFamily.has(link.to));
  const children = new Map<string, FamilyLink[]>();
  for (const link of own) children.set(link.from, [...children.get(link.from) ?? [], link]);
  for (const below of children.values()) below.sort(byKindThenTime);
  const hasParent = new Set(own.map((link) => link.to));
  const roots = members.filter((id) => !hasParent.has(id));
  const rows: TreeRow[] = [];
  const shown = new Set<string>();
  const visit = (
    id: string,
    at: { depth: number; via?: LinkType; last: boolean; ancestorsLast: boolean[] },
  ) => {
    const repeated = shown.has(id);
    rows.push({ id, repeated, ...at });
    if (repeated) return;
    shown.add(id);
    const below = children.get(id) ?? [];
    below.forEach((link, i) =>
      visit(link.to, {
        depth: at.depth + 1,
        via: link.type,
        last: i === below.length - 1,
        ancestorsLast: at.depth === 0 ? [] : [...at.ancestorsLast, at.last],
      })
    );
  };
  for (const root of roots.length > 0 ? roots : members.slice(0, 1)) {
    visit(root, { depth: 0, last: true, ancestorsLast: [] });
  }
  // Members a cycle kept from every root.
  for (const id of members) {
    if (!shown.has(id)) visit(id, { depth: 0, last: true, ancestorsLast: [] });
  }
  return rows;
}

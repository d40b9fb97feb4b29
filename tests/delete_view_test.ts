/** What a delete's confirmation says of the vault's copy: its path, and a count only of many. */

import assert from "node:assert/strict";
import { showWhatGoes } from "../lib/app/edit/delete_view.ts";
import { createMemoryOutput } from "../lib/ui/output.ts";

function said(vaultCopy: string[]): string {
  const out = createMemoryOutput();
  const session = { guid: "g", dir: "/p", desc: "Drop", tokens: "" };
  showWhatGoes(out, {
    session,
    listed: ["/p/g.jsonl"],
    noTranscript: false,
    staying: [],
    vaultCopy,
    setAside: [],
  });
  return out.text();
}

Deno.test("delete's confirmation: one vault file is named, not counted as '(1 files)'", () => {
  assert.match(said(["/v/g.jsonl"]), /its copy in the vault: \/v\/g\.jsonl\n/);
  assert.match(
    said(["/v/g.jsonl", "/v/g/a", "/v/g/b"]),
    /its copy in the vault: \/v\/g\.jsonl \(3 files\)\n/,
  );
  assert.doesNotMatch(said(["/v/g.jsonl"]), /files\)/);
});

// Contract: how the pinned real CLI layers `cleanupPeriodDays`, which the clean-up
// forecast (lib/core/cleanup_forecast.ts) imitates. The built CLI carries its settings
// sources in merge order (lowest first: user, project, local, flag, policy, so managed
// settings win and the folder's local file beats its shared one), the managed-settings
// folder of each OS, and the rule that the period is at least 1. Ignored unless
// CLAUDECM_REAL_CLAUDE names the CLI.
import assert from "node:assert/strict";
import { REAL_CLAUDE } from "./helpers/real_claude.ts";
import { managedSettingsDir } from "../lib/core/cleanup_forecast.ts";

/** Which of `needles` occur in the file, read in overlapping chunks (it is ~400 MB). */
async function occurring(file: string, needles: string[]): Promise<Set<string>> {
  const found = new Set<string>();
  const overlap = Math.max(...needles.map((n) => n.length));
  const decoder = new TextDecoder("latin1");
  let carry = "";
  using handle = await Deno.open(file);
  const buffer = new Uint8Array(8 * 1024 * 1024);
  for (let n = await handle.read(buffer); n !== null; n = await handle.read(buffer)) {
    const text = carry + decoder.decode(buffer.subarray(0, n));
    for (const needle of needles) if (text.includes(needle)) found.add(needle);
    carry = text.slice(-overlap);
  }
  return found;
}

Deno.test({
  name:
    "real claude: cleanupPeriodDays layers (policy > flag > local > project > user), managed folders",
  ignore: REAL_CLAUDE === undefined,
  fn: async () => {
    const order =
      '["userSettings","projectSettings","localSettings","flagSettings","policySettings"]';
    const none = () => undefined;
    const folders = (["linux", "darwin", "windows"] as const).map((os) =>
      managedSettingsDir(none, os)
    );
    const needles = [order, ...folders, "managed-settings.json", "managed-settings.d"];
    needles.push("cleanupPeriodDays must be at least 1");
    const found = await occurring(Deno.realPathSync(REAL_CLAUDE!), needles);
    assert.deepEqual(needles.filter((n) => !found.has(n)), []);
  },
});

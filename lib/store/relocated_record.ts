/**
 * The `relocated` record claude's own `/cd` appends to a session it moves
 * to another folder (claude 2.1.332: `{"type":"relocated","sessionId",
 * "relocatedCwd"}`, pinned in tests/real_claude_cd_contract_test.ts). Claude
 * reads the last one as the session's folder ahead of the first `cwd`, and
 * so does lib/transcript/session_folder.ts. `claudecm move` appends the same
 * record, so claude and claudecm both see the session as NEW's.
 *
 * @module
 */

import { withPath } from "../core/errors.ts";

const encoder = new TextEncoder();

/** Append claude's `relocated` record for session `sessionId`, now of `relocatedCwd`, to `path`. */
export function appendRelocatedRecord(
  path: string,
  { sessionId, relocatedCwd }: { sessionId: string; relocatedCwd: string },
): void {
  const record = JSON.stringify({ type: "relocated", sessionId, relocatedCwd });
  const file = Deno.openSync(path, { read: true, append: true });
  try {
    // A last line without its newline (a claude killed mid-write) keeps its own line.
    const size = file.statSync().size;
    let lead = "";
    if (size > 0) {
      const last = new Uint8Array(1);
      file.seekSync(size - 1, Deno.SeekMode.Start);
      file.readSync(last);
      if (last[0] !== 0x0a) lead = "\n";
    }
    const bytes = encoder.encode(`${lead}${record}\n`);
    let written = 0;
    while (written < bytes.length) written += file.writeSync(bytes.subarray(written));
  } catch (error) {
    throw withPath(error, path);
  } finally {
    file.close();
  }
}

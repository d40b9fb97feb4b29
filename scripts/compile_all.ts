/**
 * Build the release binaries: `deno compile` for every target, then
 * SHA256SUMS over them. Run by the release workflow (`npm run compile`); it
 * needs to download Deno's runtime for each target, so it does not run in CI.
 *
 * @module
 */

import { createHash } from "node:crypto";
import { VERSION } from "../lib/version.ts";

/** Release targets and the asset name each produces. */
export const TARGETS: ReadonlyArray<{ target: string; asset: string }> = [
  { target: "x86_64-unknown-linux-gnu", asset: "claudecm-linux-x86_64" },
  { target: "aarch64-unknown-linux-gnu", asset: "claudecm-linux-aarch64" },
  { target: "x86_64-apple-darwin", asset: "claudecm-macos-x86_64" },
  { target: "aarch64-apple-darwin", asset: "claudecm-macos-aarch64" },
  { target: "x86_64-pc-windows-msvc", asset: "claudecm-windows-x86_64.exe" },
];

const OUT_DIR = "dist";

async function compile(target: string, asset: string): Promise<void> {
  const output = `${OUT_DIR}/${asset}`;
  const { code } = await new Deno.Command(Deno.execPath(), {
    args: ["compile", "--allow-all", "--target", target, "--output", output, "main.ts"],
    stdout: "inherit",
    stderr: "inherit",
  }).output();
  if (code !== 0) throw new Error(`deno compile failed for ${target}`);
}

function sha256(path: string): string {
  return createHash("sha256").update(Deno.readFileSync(path)).digest("hex");
}

if (import.meta.main) {
  Deno.mkdirSync(OUT_DIR, { recursive: true });
  for (const { target, asset } of TARGETS) await compile(target, asset);
  const sums = TARGETS.map(({ asset }) => `${sha256(`${OUT_DIR}/${asset}`)}  ${asset}\n`).join("");
  Deno.writeTextFileSync(`${OUT_DIR}/SHA256SUMS`, sums);
  console.log(`claudecm ${VERSION}: ${TARGETS.length} binaries and SHA256SUMS in ${OUT_DIR}/`);
}

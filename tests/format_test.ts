import assert from "node:assert/strict";
import {
  folderDefaultName,
  formatDateShort,
  formatSize,
  formatStamp,
  formatTokens,
} from "../lib/core/format.ts";

Deno.test("formatTokens follows spec 7, rounding into the next unit (never 1000K)", () => {
  const table: Array<[string | number | undefined, string]> = [
    ["", "--"],
    [undefined, "--"],
    ["  ", "--"],
    [0, "0 tok"],
    [999, "999 tok"],
    [1_000, "1K tok"],
    [999_499, "999K tok"],
    [999_500, "1.0M tok"],
    [999_999, "1.0M tok"],
    ["155000", "155K tok"],
    [155_499, "155K tok"],
    [1_000_000, "1.0M tok"],
    [1_249_999, "1.2M tok"],
    ["12345678", "12.3M tok"],
  ];
  for (const [input, expected] of table) assert.equal(formatTokens(input), expected, `${input}`);
});

Deno.test("formatSize uses binary units with the spec's decimals, never 1024 KB", () => {
  const table: Array<[number, string]> = [
    [0, "0 B"],
    [1023, "1023 B"],
    [1024, "1 KB"],
    [512 * 1024, "512 KB"],
    [1023 * 1024 + 511, "1023 KB"],
    [1024 * 1024 - 512, "1.0 MB"],
    [1024 * 1024 - 1, "1.0 MB"],
    [1024 * 1024, "1.0 MB"],
    [1.5 * 1024 * 1024, "1.5 MB"],
  ];
  for (const [input, expected] of table) assert.equal(formatSize(input), expected, `${input}`);
});

Deno.test("formatDateShort adds the year only for dates before this year, across New Year", () => {
  const newYearsDay = new Date(2027, 0, 1, 0, 5);
  assert.equal(formatDateShort(new Date(2026, 11, 31, 23, 59), newYearsDay), "Dec 31, 2026");
  assert.equal(formatDateShort(new Date(2027, 0, 1, 0, 1), newYearsDay), "Jan 1");
  assert.equal(formatDateShort(new Date(2026, 2, 13), new Date(2026, 10, 30)), "Mar 13");
  assert.equal(formatDateShort(new Date(2025, 2, 13), new Date(2026, 10, 30)), "Mar 13, 2025");
});

Deno.test("formatStamp is yyyyMMdd-HHmmss in local time", () => {
  assert.equal(formatStamp(new Date(2026, 0, 2, 3, 4, 5)), "20260102-030405");
});

Deno.test("folderDefaultName title-cases the leaf with dashes as spaces", () => {
  assert.equal(folderDefaultName("my-cool-app"), "My Cool App");
  // The default name obeys the rule a typed one does (validateSessionName).
  assert.equal(folderDefaultName("A|b"), "A B");
  assert.equal(folderDefaultName("two\nlines\r\nhere"), "Two Lines Here");
  assert.equal(folderDefaultName("claudecm"), "Claudecm");
  assert.equal(folderDefaultName("x--y"), "X Y");
});

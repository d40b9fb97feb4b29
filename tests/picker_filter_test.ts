import assert from "node:assert/strict";
import { filterItems, haystackOf, listNumberOf, type PickerItem } from "../lib/ui/picker/filter.ts";

function item(number: number, name: string, folder = "/home/u/proj"): PickerItem {
  return {
    number,
    guid: `guid-${number}`,
    name,
    folder,
    age: "Mar 13",
    size: "1 KB",
    tokens: "--",
    live: false,
    haystack: haystackOf(name, folder),
  };
}

const items = [
  item(1, "Billing API"),
  item(2, "Release notes", "/home/u/billing"),
  item(3, "Σχέδιο ΚΑΣ"),
  item(4, "Docs 12"),
  ...Array.from({ length: 7 }, (_, i) => item(5 + i, `Other ${String.fromCharCode(97 + i)}`)),
  item(12, "Twelve"),
];

Deno.test("filter: an empty query shows every row in list order", () => {
  assert.deepEqual(filterItems(items, "  ").map((row) => row.item.number), [
    1,
    2,
    3,
    4,
    5,
    6,
    7,
    8,
    9,
    10,
    11,
    12,
  ]);
});

Deno.test("filter: every word must be in the name or folder, ignoring case", () => {
  assert.deepEqual(filterItems(items, "BILL").map((row) => row.item.number), [1, 2]);
  assert.deepEqual(filterItems(items, "bill notes").map((row) => row.item.number), [2]);
  assert.deepEqual(filterItems(items, "κασ").map((row) => row.item.number), [3]);
  assert.deepEqual(filterItems(items, "nothing"), []);
});

Deno.test("filter: name and folder matches first, then content matches with their words", () => {
  const content = new Map([["guid-4", "the \u0001billing\u0002 run"], ["guid-1", "x"]]);
  const rows = filterItems(items, "billing", content);
  assert.deepEqual(rows.map((row) => [row.item.number, row.match]), [
    [1, "name"],
    [2, "name"],
    [4, "content"],
  ]);
  assert.equal(rows[2].snippet, "the \u0001billing\u0002 run");
});

Deno.test("filter: a list number comes first, so Enter resumes it", () => {
  const rows = filterItems(items, "12");
  assert.deepEqual(rows.map((row) => [row.item.number, row.match]), [[12, "number"], [4, "name"]]);
  assert.equal(listNumberOf("3", 5), 3);
  assert.equal(listNumberOf(" 3 ", 5), 3);
  assert.equal(listNumberOf("6", 5), null);
  assert.equal(listNumberOf("1234567890", 5), null);
  assert.equal(listNumberOf("0", 5), null);
  assert.equal(listNumberOf("3a", 5), null);
  // A number past the end filters as text only.
  assert.deepEqual(filterItems(items, "99").map((row) => row.item.number), []);
});

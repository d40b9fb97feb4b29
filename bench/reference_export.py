#!/usr/bin/env python3
"""The reference HTML export: the baseline for `claudecm export --format html`.

The minimal script a user would write to turn a Claude Code transcript into
an HTML page: stream the .jsonl line by line, json.loads every line, and
write every string of each user and assistant message HTML-escaped, one
<pre> per message. No layout, no tool views, no subagents: the floor an
exporter must parse and escape. bench/export.ts runs it beside claudecm in
the same run and prints the ratio (issue 35: at most 2x).

Usage: python3 bench/reference_export.py TRANSCRIPT.jsonl OUT.html
Prints one JSON line: {"ms": ..., "peakRssMiB": ...}.
"""

import html
import json
import resource
import sys
import time


def strings(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, list):
        for item in value:
            yield from strings(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from strings(item)


def main():
    source, target = sys.argv[1], sys.argv[2]
    start = time.perf_counter()
    with open(source, encoding="utf-8") as lines, open(target, "w", encoding="utf-8") as out:
        out.write("<!DOCTYPE html><html><head><meta charset=\"utf-8\"></head><body>\n")
        for line in lines:
            try:
                entry = json.loads(line)
            except ValueError:
                continue
            if not isinstance(entry, dict) or entry.get("type") not in ("user", "assistant"):
                continue
            message = entry.get("message")
            if not isinstance(message, dict):
                continue
            out.write("<pre>")
            for text in strings(message.get("content")):
                out.write(html.escape(text))
                out.write("\n")
            out.write("</pre>\n")
        out.write("</body></html>\n")
    ms = (time.perf_counter() - start) * 1000
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps({"ms": ms, "peakRssMiB": peak}))


if __name__ == "__main__":
    main()

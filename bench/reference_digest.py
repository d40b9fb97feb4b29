#!/usr/bin/env python3
"""The reference streaming digest extractor: the baseline for `recover --digest`.

What it is: the script a user would write to recover a crashed Claude Code
session without claudecm. It streams a transcript (.jsonl) line by line,
json.loads every line, keeps the working state `claudecm recover --session ID
--digest` shows (titles, last instruction, recent asks, last assistant
message, todo list, recent tool actions, files touched, branch and modes,
whether the last turn was cut off) and prints it as a markdown digest with
the same sections.

Why it exists: issue 7 sets claudecm's digest of a 100 MB transcript at no
more than 0.5x the time of this extractor. bench/digest_reference.ts runs
both, alternately, and prints the ratio. It is written plainly and
idiomatically on purpose (standard library only, no tricks in either
direction), so the ratio says how claudecm compares to the obvious approach.
It does not cut the digest to a character budget (claudecm does; that is
negligible work). tests/reference_digest_test.ts keeps it running.

Usage: python3 bench/reference_digest.py TRANSCRIPT.jsonl
"""

import json
import re
import sys
from collections import deque
from pathlib import Path

MAX_ASKS = 5
MAX_ACTIONS = 10
MAX_FILES = 30
MAX_SNAPSHOT_FILES = 1000
FILE_CHANGING_TOOLS = {"Edit", "MultiEdit", "Write", "NotebookEdit"}
HOUSEKEEPING_COMMANDS = {
    "add-dir", "agents", "clear", "compact", "config", "context", "continue", "cost",
    "doctor", "exit", "export", "help", "hooks", "ide", "login", "logout", "mcp",
    "memory", "model", "permissions", "quit", "recover", "rename", "resume", "rewind",
    "status", "statusline", "theme", "usage", "vim",
}
INTERRUPTED = re.compile(r"^\[Request interrupted by user[^\]]*\]$")
SYSTEM_REMINDER = re.compile(r"<system-reminder>.*?(</system-reminder>|$)", re.DOTALL)
LOCAL_COMMAND = re.compile(r"^\s*<(local-command-stdout|local-command-stderr|local-command-caveat)>")
COMMAND_NAME = re.compile(r"<command-name>\s*/?([^<]*?)\s*</command-name>")
COMMAND_ARGS = re.compile(r"<command-args>(.*?)</command-args>", re.DOTALL)


def one_line(text, limit):
    flat = re.sub(r"\s*\n\s*", " ⏎ ", text).strip()
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def cap(text, limit):
    return text if len(text) <= limit else f"{text[:limit]}…[+{len(text) - limit} chars]"


def clean_prompt(text):
    """The words of a prompt without wrappers and reminders; None if nothing real is left."""
    if LOCAL_COMMAND.match(text):
        return None
    command = COMMAND_NAME.search(text)
    if command:
        name = command.group(1).strip()
        if name in HOUSEKEEPING_COMMANDS:
            return None
        args = COMMAND_ARGS.search(text)
        args = args.group(1).strip() if args else ""
        return f"/{name} {args}" if args else f"/{name}"
    cleaned = SYSTEM_REMINDER.sub("", text).strip()
    if not cleaned or INTERRUPTED.match(cleaned):
        return None
    return cleaned


def tool_detail(name, tool_input):
    def text(key):
        value = tool_input.get(key)
        return value if isinstance(value, str) else None

    detail = text("command") or text("file_path") or text("notebook_path")
    if detail is None and text("pattern") is not None:
        detail = text("pattern") + (f" in {text('path')}" if text("path") else "")
    detail = detail or text("url") or text("query") or text("subject")
    if detail is None and "taskId" in tool_input:
        status = tool_input.get("status")
        detail = f"task {tool_input['taskId']}" + (f" → {status}" if isinstance(status, str) else "")
    detail = detail or text("description")
    if detail is None and isinstance(tool_input.get("todos"), list):
        detail = f"{len(tool_input['todos'])} todos"
    if detail is None:
        detail = next((v for v in tool_input.values() if isinstance(v, str)), "")
    return one_line(detail, 200)


class Digest:
    def __init__(self):
        self.titles = {}
        self.last_prompt = None
        self.asks = deque(maxlen=MAX_ASKS)
        self.last_text = None
        self.todos = None
        self.tasks = {}
        self.tasks_created = 0
        self.actions = deque(maxlen=MAX_ACTIONS)
        self.edited = {}
        self.snapshot_files = {}
        self.pending = {}
        self.queued = []
        self.last_event = None
        self.api_error = None
        self.branch = self.mode = self.permission_mode = self.cwd = None
        self.last_activity = None
        self.compactions = 0
        self.corrupt = 0
        self.corrupt_lines = []
        self.truncated = False

    def read(self, path):
        with open(path, encoding="utf-8", errors="replace") as transcript:
            for number, line in enumerate(transcript, 1):
                if not line.strip():
                    continue
                try:
                    entry = json.loads(line)
                except json.JSONDecodeError:
                    if line.endswith("\n"):
                        self.corrupt += 1
                        if len(self.corrupt_lines) < 10:
                            self.corrupt_lines.append(number)
                    else:
                        self.truncated = True
                    continue
                if isinstance(entry, dict):
                    self.take(entry)

    def take(self, entry):
        kind = entry.get("type")
        if isinstance(entry.get("timestamp"), str):
            self.last_activity = entry["timestamp"]
        if kind in ("custom-title", "ai-title", "summary"):
            key = {"custom-title": "customTitle", "ai-title": "aiTitle"}.get(kind, kind)
            self.titles[kind] = entry.get(key)
        elif kind == "last-prompt":
            self.last_prompt = entry.get("lastPrompt")
        elif kind == "mode":
            self.mode = entry.get("mode")
        elif kind == "permission-mode":
            self.permission_mode = entry.get("permissionMode")
        elif kind == "file-history-snapshot":
            backups = (entry.get("snapshot") or {}).get("trackedFileBackups") or {}
            for file in backups:
                if len(self.snapshot_files) < MAX_SNAPSHOT_FILES:
                    self.snapshot_files[file] = True
        elif kind == "queue-operation":
            operation = entry.get("operation")
            if operation == "enqueue" and isinstance(entry.get("content"), str):
                self.queued.append(entry["content"])
            elif operation in ("dequeue", "remove") and self.queued:
                self.queued.pop(0)
            elif operation == "popAll":
                self.queued = []
        elif entry.get("isSidechain") is True:
            return
        elif kind in ("user", "assistant", "system"):
            self.branch = entry.get("gitBranch") or self.branch
            self.cwd = entry.get("cwd") or self.cwd
            if kind == "user":
                self.user(entry)
            elif kind == "assistant":
                self.assistant(entry)
            elif entry.get("subtype") == "compact_boundary":
                self.compactions += 1
            elif entry.get("subtype") == "turn_duration":
                self.pending.clear()
                self.last_event = "turn_end"

    def user(self, entry):
        content = (entry.get("message") or {}).get("content")
        if isinstance(content, list):
            results = [b for b in content if isinstance(b, dict) and b.get("type") == "tool_result"]
            if results:
                for block in results:
                    self.pending.pop(block.get("tool_use_id"), None)
                self.last_event = "tool_result"
                return
            content = "\n".join(
                b["text"] for b in content if isinstance(b, dict) and b.get("type") == "text"
            )
        if not isinstance(content, str) or entry.get("isMeta") or entry.get("isCompactSummary"):
            return
        ask = clean_prompt(content)
        if ask is None:
            return
        self.asks.append(ask)
        self.last_prompt = ask
        self.pending.clear()
        self.last_event = "ask"

    def assistant(self, entry):
        content = (entry.get("message") or {}).get("content")
        if isinstance(content, str):
            content = [{"type": "text", "text": content}]
        blocks = [b for b in content or [] if isinstance(b, dict)]
        texts = [b["text"] for b in blocks if b.get("type") == "text" and b.get("text")]
        if entry.get("isApiErrorMessage"):
            self.api_error = one_line(" ".join(texts).strip() or "unknown error", 200)
            self.last_event = "api_error"
            return
        text = SYSTEM_REMINDER.sub("", "\n".join(texts)).strip()
        if text:
            self.last_text = text
            self.last_event = "reply"
        for block in blocks:
            if block.get("type") == "tool_use":
                self.tool_use(block)

    def tool_use(self, block):
        name = block.get("name", "")
        tool_input = block.get("input") if isinstance(block.get("input"), dict) else {}
        self.pending[block.get("id", "")] = (name, tool_input)
        self.last_event = "tool_use"
        self.actions.append(f"- {name}: {tool_detail(name, tool_input)}")
        path = tool_input.get("file_path") or tool_input.get("notebook_path")
        if name in FILE_CHANGING_TOOLS and isinstance(path, str) and path:
            self.edited.pop(path, None)
            self.edited[path] = True
            if len(self.edited) > MAX_FILES:
                del self.edited[next(iter(self.edited))]
        if name == "TodoWrite" and isinstance(tool_input.get("todos"), list):
            self.todos = [
                (t["content"], t.get("status", "pending"))
                for t in tool_input["todos"]
                if isinstance(t, dict) and isinstance(t.get("content"), str)
            ]
        elif name == "TaskCreate" and isinstance(tool_input.get("subject"), str):
            self.tasks_created += 1
            self.tasks[str(self.tasks_created)] = [tool_input["subject"], "pending"]
            self.todos = [tuple(task) for task in self.tasks.values()]
        elif name == "TaskUpdate" and "taskId" in tool_input:
            task_id = str(tool_input["taskId"])
            if tool_input.get("status") == "deleted":
                self.tasks.pop(task_id, None)
            elif task_id in self.tasks:
                if isinstance(tool_input.get("status"), str):
                    self.tasks[task_id][1] = tool_input["status"]
                if isinstance(tool_input.get("subject"), str):
                    self.tasks[task_id][0] = tool_input["subject"]
            self.todos = [tuple(task) for task in self.tasks.values()]

    def relative(self, file):
        cwd = self.cwd
        if cwd and (file.startswith(cwd + "/") or file.startswith(cwd + "\\")):
            return file[len(cwd) + 1:]
        return file

    def files_touched(self):
        files = [self.relative(f) for f in reversed(self.edited)]
        for file in self.snapshot_files:
            if len(files) >= MAX_FILES:
                break
            if self.relative(file) not in files:
                files.append(self.relative(file))
        return files

    def incomplete(self):
        reasons = []
        if self.truncated:
            reasons.append("the transcript's last line is half-written (claude stopped mid-write)")
        for name, tool_input in self.pending.values():
            reasons.append(
                f"work was in progress on {name}: {tool_detail(name, tool_input)} (no result recorded)"
            )
        if self.last_event == "ask":
            reasons.append("the last ask got no reply")
        if self.last_event == "tool_result":
            reasons.append("tool results came back but claude had not answered them")
        if self.last_event == "api_error":
            reasons.append(f"the last reply was an API error: {self.api_error}")
        for prompt in self.queued:
            text = clean_prompt(prompt)
            if text is not None:
                reasons.append(f"a queued prompt was never processed: {one_line(text, 200)}")
        return reasons

    def render(self, session_id):
        incomplete = self.incomplete()
        facts = [f"last activity {self.last_activity or 'unknown'}"]
        if self.corrupt:
            where = ", ".join(map(str, self.corrupt_lines))
            where += ", ..." if self.corrupt > len(self.corrupt_lines) else ""
            facts.append(
                f"1 corrupt line (line {where}) skipped"
                if self.corrupt == 1
                else f"{self.corrupt} corrupt lines (lines {where}) skipped"
            )
        if self.compactions:
            facts.append(f"compacted {self.compactions}x")
        out = [f"# Recovered session {session_id}", " · ".join(facts)]
        if incomplete:
            out.append("Status: the last turn may be incomplete.")
        instruction = self.last_prompt or (self.asks[-1] if self.asks else None)
        posture = [
            f"branch {self.branch}" if self.branch else "",
            f"mode {self.mode}" if self.mode else "",
            f"permission mode {self.permission_mode}" if self.permission_mode else "",
            f"folder {self.cwd}" if self.cwd else "",
        ]
        title = self.titles.get("custom-title") or self.titles.get("ai-title") or self.titles.get("summary")
        asks = [a for a in self.asks if a != instruction]
        sections = [
            ("## Title", title),
            ("## Last instruction", instruction and cap(instruction, 1500)),
            ("## Recent asks (oldest first)",
             "\n".join(f"{i}. {cap(a, 800)}" for i, a in enumerate(asks, 1))),
            ("## Last assistant message", self.last_text and cap(self.last_text, 4000)),
            ("## Todos", "\n".join(f"[{s}] {cap(c, 200)}" for c, s in self.todos or [])),
            ("## Recent tool actions (oldest first)", "\n".join(self.actions)),
            ("## Files touched (latest first)", "\n".join(f"- {f}" for f in self.files_touched())),
            ("## Branch and modes", " · ".join(p for p in posture if p)),
            ("## Warning: the last turn may be incomplete", "\n".join(f"- {r}" for r in incomplete)),
        ]
        for heading, body in sections:
            if body and body.strip():
                out.append(f"\n{heading}\n{body}")
        out.append(
            f"\nFor a true native continuation, run this in a fresh terminal:\nclaude --resume {session_id}"
        )
        return "\n".join(out) + "\n"


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: reference_digest.py TRANSCRIPT.jsonl")
    path = Path(sys.argv[1])
    digest = Digest()
    try:
        digest.read(path)
    except OSError as error:
        sys.exit(f"reference_digest.py: cannot read {path}: {error.strerror}")
    sys.stdout.write(digest.render(path.stem))


if __name__ == "__main__":
    main()

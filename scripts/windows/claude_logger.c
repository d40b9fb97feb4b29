/*
 * A stand-in claude.exe for scripts/windows_checks.sh: logs how its
 * arguments arrived, three ways (the raw command line, CommandLineToArgvW's
 * split and the C runtime's argv), as one JSON line appended to %ARGV_LOG%.
 * Answers --version and --help like claude; a launch with --session-id ID
 * writes a one-line transcript %FAKE_TRANSCRIPT_DIR%\ID.jsonl recording the
 * cwd, so `claudecm resume 1` finds the session afterwards.
 * Build: x86_64-w64-mingw32-gcc -municode -O2 -o claude.exe claude_logger.c -lshell32
 */
#include <windows.h>
#include <shellapi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

/* `text` as a JSON string (UTF-8, quotes, backslashes and control characters escaped). */
static void put_json(FILE *out, const wchar_t *text) {
  int size = WideCharToMultiByte(CP_UTF8, 0, text, -1, NULL, 0, NULL, NULL);
  char *utf8 = (char *)malloc(size > 0 ? size : 1);
  if (size <= 0) utf8[0] = 0;
  else WideCharToMultiByte(CP_UTF8, 0, text, -1, utf8, size, NULL, NULL);
  fputc('"', out);
  for (const unsigned char *c = (const unsigned char *)utf8; *c; c++) {
    if (*c == '"' || *c == '\\') fprintf(out, "\\%c", *c);
    else if (*c < 0x20) fprintf(out, "\\u%04x", *c);
    else fputc(*c, out);
  }
  fputc('"', out);
  free(utf8);
}

static void put_list(FILE *out, wchar_t **items, int count) {
  fputc('[', out);
  for (int i = 1; i < count; i++) {
    if (i > 1) fputc(',', out);
    put_json(out, items[i]);
  }
  fputc(']', out);
}

static void write_transcript(const wchar_t *id) {
  const wchar_t *dir = _wgetenv(L"FAKE_TRANSCRIPT_DIR");
  if (dir == NULL) return;
  wchar_t path[4096];
  wchar_t cwd[4096];
  swprintf(path, 4096, L"%ls\\%ls.jsonl", dir, id);
  GetCurrentDirectoryW(4096, cwd);
  FILE *out = _wfopen(path, L"ab");
  if (out == NULL) return;
  fputs("{\"type\":\"user\",\"message\":{\"role\":\"user\",\"content\":\"hello\"},", out);
  fputs("\"uuid\":\"00000000-0000-4000-8000-000000000001\",", out);
  fputs("\"timestamp\":\"2026-01-01T00:00:00.000Z\",\"cwd\":", out);
  put_json(out, cwd);
  fputs(",\"sessionId\":", out);
  put_json(out, id);
  fputs("}\n", out);
  fclose(out);
}

int wmain(int argc, wchar_t **argv) {
  if (argc == 2 && wcscmp(argv[1], L"--version") == 0) {
    puts("2.1.332 (Claude Code)");
    return 0;
  }
  if (argc == 2 && wcscmp(argv[1], L"--help") == 0) {
    puts("Usage: claude [options] [command] [prompt]\n\nOptions:\n"
         "  -r, --resume [value]     Resume a conversation\n"
         "  --session-id <uuid>      Use a specific session ID\n"
         "  -n, --name <name>        Set a display name for this session");
    return 0;
  }
  const wchar_t *log = _wgetenv(L"ARGV_LOG");
  if (log != NULL) {
    FILE *out = _wfopen(log, L"ab");
    if (out != NULL) {
      int count = 0;
      wchar_t **split = CommandLineToArgvW(GetCommandLineW(), &count);
      fputs("{\"raw\":", out);
      put_json(out, GetCommandLineW());
      fputs(",\"win32\":", out);
      put_list(out, split, count);
      fputs(",\"crt\":", out);
      put_list(out, argv, argc);
      fputs("}\n", out);
      fclose(out);
    }
  }
  for (int i = 1; i + 1 < argc; i++) {
    if (wcscmp(argv[i], L"--session-id") == 0) write_transcript(argv[i + 1]);
  }
  return 0;
}

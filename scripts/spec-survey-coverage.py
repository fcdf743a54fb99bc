#!/usr/bin/env python3
"""Spec 04's survey part in code (issue 17): its quoted texts and its calls, each looked for in
web/src, api/src and wasm-core (src and labels). Prints every item with where it was found and
the counts; `--markdown` prints the table README keeps.

The survey part: §2 "Survey administration area" (up to "Techpad settings area"), the survey
entities of §3 (up to "Techpad general settings"), the survey lines of §4, §5, §8 and §9, and the
survey calls of §7 (everything but "Techpad settings"). A text is a '...' or "..." quotation of
those lines; one with placeholders ({name}) is found when its fixed pieces all are, in one file.
A call is a path of §7: `/api/...` as written, a path relative to its subsection's base
("base /api/surveyTheme"), or a name listed after "GET /api/survey/ with"; query strings are
left out. Comment lines are not searched. A call is found when its path (`/api/survey/GetAllProcedures`) is in the code, or,
for the uploads "to the admin URL" and the report template URL, its last part is; a settings
group's `/api/configurationForm/{name}` when the generic route and the group's name are."""

import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# The specs sit beside the repository (../shared/spec); SPEC_04 names the file elsewhere.
SPEC = os.environ.get(
    "SPEC_04",
    os.path.join(ROOT, "..", "shared", "spec", "04-survey-admin-and-techpad-settings.md"),
)
CODE_DIRS = ["web/src", "api/src", "wasm-core/src", "wasm-core/labels"]
SURVEY_WORDS = re.compile(
    r"survey|webhook|theme|maglink|location|report|librar|lexicon|pin|margin|summary|font size",
    re.I,
)


def sections(lines):
    """(heading, [lines]) for every ## / ### / #### heading."""
    out, head, body = [], "", []
    for line in lines:
        if line.startswith("#"):
            out.append((head, body))
            head, body = line.strip("# \n"), []
        else:
            body.append(line)
    out.append((head, body))
    return out


def survey_part(text):
    lines, part, calls = text.splitlines(), [], []
    mode = None
    for head, body in sections(lines):
        if head == "Survey administration area":
            mode = "survey"
        elif head == "Techpad settings area":
            mode = None
        elif head.startswith("3. Entities"):
            mode = "survey"
        elif head == "Techpad general settings":
            mode = None
        elif head[:2] in ("4.", "5.", "8.", "9."):
            mode = "filtered"
        elif head.startswith("6.") or head.startswith("7."):
            mode = None
        if head.startswith("7. ") or (mode is None and head in (
                "Survey theme (base /api/surveyTheme)", "Survey settings",
                "Survey administration uploads and lists")):
            if head.startswith("Survey"):
                calls.append((head, body))
            continue
        if mode == "survey":
            part += body
        elif mode == "filtered":
            part += [l for l in body if SURVEY_WORDS.search(l)]
    return part, calls


def quoted_texts(lines):
    found = []
    for line in lines:
        for m in re.finditer(r"'([^']{2,})'|\"([^\"]{2,})\"", line):
            t = (m.group(1) or m.group(2)).strip()
            if t and t not in found:
                found.append(t)
    return found


def call_paths(call_sections):
    paths = []
    for head, body in call_sections:
        base = re.search(r"base (/api/\w+)", head)
        base = base.group(1) if base else ""
        for line in body:
            listed = re.search(r"GET (/api/\w+/) with (.*?)\. ", line)
            if listed:
                names = re.sub(r"\([^)]*\)", "", listed.group(2))
                for name in re.findall(r"\b([A-Za-z]{6,})\b", names):
                    paths.append(listed.group(1) + name)
                continue
            line = re.sub(r"\b(GET|POST|PUT|DELETE)(/(GET|POST|PUT|DELETE))+\b", "GET", line)
            for p in re.findall(r"(/[A-Za-z][\w/{}]*)", line):
                p = p.rstrip("/")
                if p.startswith("/api/") or p.startswith("/exportLexicon"):
                    paths.append(p)
                elif base and re.fullmatch(r"/\w+", p):
                    paths.append(base + p)
                elif re.fullmatch(r"/\w+", p):
                    paths.append(p)  # relative to a URL the spec does not give
    seen = []
    for p in paths:
        if p not in seen:
            seen.append(p)
    return seen


def code_files():
    for d in CODE_DIRS:
        for root, _, files in os.walk(os.path.join(ROOT, d)):
            for f in files:
                if f.endswith((".rs", ".ts", ".tsx", ".json", ".md")):
                    path = os.path.join(root, f)
                    with open(path, encoding="utf-8", errors="replace") as fh:
                        # Comments do not count: only code and data that the product shows or calls.
                        body = "\n".join(
                            l for l in fh
                            if not l.lstrip().startswith(("//", "/*", "*", "#")))
                        yield os.path.relpath(path, ROOT), body


def main():
    if not os.path.isfile(SPEC):
        sys.exit(f"spec 04 not found at {SPEC}: set SPEC_04 to its file")
    text = open(SPEC, encoding="utf-8").read()
    part, call_sections = survey_part(text)
    texts = quoted_texts(part)
    calls = call_paths(call_sections)
    files = list(code_files())

    def find_text(t):
        pieces = [p for p in re.split(r"\{[^}]*\}", t) if len(p.strip()) >= 3]
        for name, body in files:
            if all(p in body for p in pieces):
                return name
        return None

    def find_call(p):
        for name, body in files:
            if p in body:
                return name
        # A settings group's path is served by the one route `/api/configurationForm/{name}`:
        # found when that route and the group (as a string) both are.
        group = re.fullmatch(r"/api/configurationForm/(\w+)", p)
        if group:
            route = next((n for n, b in files if '"/api/configurationForm/{name}"' in b), None)
            named = next((n for n, b in files if f'"{group.group(1)}"' in b), None)
            if route and named:
                return f"{route} + {named}"
        return None

    rows = [("text", t, find_text(t)) for t in texts] + [("call", c, find_call(c)) for c in calls]
    md = "--markdown" in sys.argv
    if md:
        print("| kind | spec 04 | found in |\n|---|---|---|")
    for kind, item, where in rows:
        if md:
            print(f"| {kind} | `{item}` | {where or '**missing**'} |")
        else:
            print(f"{kind:4}  {'ok ' if where else 'MISSING'}  {item}  {where or ''}")
    t_ok = sum(1 for k, _, w in rows if k == "text" and w)
    c_ok = sum(1 for k, _, w in rows if k == "call" and w)
    print(f"\nspec 04 survey part in code: texts {t_ok} of {len(texts)}, calls {c_ok} of {len(calls)}")


if __name__ == "__main__":
    main()

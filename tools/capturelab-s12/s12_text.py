# Text shared by the s12 scripts of Claude Code and Codex (record_s12.py copies it beside them):
# the chunking of long texts and the answers of s16-longreason, the same for both agents.


def words_of(text, n):
    """Cut text into about n chunks at spaces (one text delta each)."""
    ws = text.split(" ")
    size = max(1, -(-len(ws) // n))
    out = [" ".join(ws[i:i + size]) for i in range(0, len(ws), size)]
    return [c + " " for c in out[:-1]] + [out[-1]]


def answer_chunks(paras):
    """The paragraphs joined by blank lines, cut into about 8 chunks each."""
    out = []
    for i, p in enumerate(paras):
        cs = words_of(p, 8)
        if i < len(paras) - 1:
            cs[-1] += "\n\n"
        out += cs
    assert "".join(out) == "\n\n".join(paras)
    return out


PARAS_MAIN = ["## Why byte slicing breaks\n\nUTF-8 writes a character in **one to four bytes**: `é` is `C3 A9`, and "
              "cutting after `C3` leaves half a character — decoders print `\ufffd`.",
              "## Code points are not enough\n\n`👩‍💻` is three code points (👩, U+200D, 💻) joined into one glyph; "
              "slicing by code point still splits it, and the reader sees 👩 and 💻 apart.",
              "## What to do\n\n1. Slice on grapheme boundaries (UAX #29).\n2. Never cut at a fixed byte offset.\n3. "
              "Test with `café`, `日本語` and 🇯🇵 — flags are two code points too. ✅"]
PARAS_V2 = ["## Byte order\n\nComparing UTF-8 bytes orders by **code point**: `Z` (0x5A) before `a` (0x61), and "
            "`Ærøskøbing` after every ASCII word, because `Æ` is U+00C6.",
            "## Locale order\n\nCollation (UCA with CLDR tailorings) sorts as people read: in Danish Æ, Ø, Å follow Z; "
            "`zoë` and `zoe` differ only at the second level. 日本語 and ひらがな follow kana order. 🍣",
            "## Advice\n\n- Sort by bytes for **stable keys** and indexes.\n- Sort by locale for anything a person reads "
            "(ICU, `golang.org/x/text/collate`).\n- Never mix the two in one list. ✔️"]

# The long thinking of s16-longreason (Claude Code's, OpenCode's and Pi's scripts; Codex's reasoning
# summary has headings of its own).
THINK_LONG_MAIN = ("The user asks about byte-wise slicing of UTF-8. Let me think step by step. "
                   "First: 'é' is two bytes (C3 A9), so cutting between them leaves an invalid lead byte. "
                   "Second: the emoji 👩‍💻 is a ZWJ sequence — woman (4 bytes), U+200D (3 bytes), laptop (4 bytes) — "
                   "eleven bytes that a reader sees as one glyph. Third: even slicing by code point splits the "
                   "sequence into 👩 and 💻. Grapheme clusters (UAX #29) are the unit a person means. "
                   "I should give an example in Go and in Python, mention that len('café') differs by language, "
                   "and end with a short rule. Also mention CJK: '日本語' is nine bytes. Résumé, naïveté, Ærøskøbing "
                   "are good examples of Latin letters outside ASCII.")
THINK_LONG_V2 = ("Sorting: bytewise order follows code points for UTF-8, so 'Z' (0x5A) sorts before 'a' (0x61) and "
                 "'Æ' (U+00C6) lands after 'z'. Locale collation (UCA, CLDR) is what people expect: in Danish, Æ Ø Å "
                 "come after Z; in German, ä sorts with a. 'zoë' versus 'zoe': ë has a diaeresis, a secondary "
                 "difference, so they are nearly equal. Case is tertiary. Let me also mention Japanese: カタカナ and "
                 "ひらがな sort by the kana order under the ja collation, and emoji like 🍣 🍜 sort by code point in "
                 "most tables. The answer should have three parts: bytes, locale, and advice — with a table maybe. "
                 "Keep it accurate: ICU implements UCA with CLDR tailorings; Go has golang.org/x/text/collate.")


# What the scripts of Claude Code, OpenCode and Pi share, per scenario and set: prompts, commands, files
# and texts. Command outputs are given without the final newline (each agent shows it its own way).
PARALLEL = {
    "main": dict(files={"config.ini": "[server]\nport = 8080\nhost = localhost\n"},
                 prompt="Check the date format, the kernel name and the contents of config.ini all at once.",
                 c1="date -u -d @0 +%Y-%m-%d", o1="1970-01-01", c2="uname -s", o2="Linux", rp="config.ini",
                 think=["Three independent ", "lookups: I can run ", "them in parallel."],
                 pre=["Running ", "three lookups ", "in parallel."],
                 fin=["The epoch date is 1970-01-01, ", "the kernel is Linux, ", "and config.ini sets port 8080."]),
    "v2": dict(files={"VERSION": "v3.14.2\n"},
               prompt="In parallel: print the working directory, count to three with seq, and read VERSION.",
               c1="pwd", o1="/home/dev/project", c2="seq 1 3", o2="1\n2\n3", rp="VERSION",
               think=["Nothing here ", "depends on anything else, ", "so one round will do."],
               pre=["Doing ", "all three ", "now."],
               fin=["You are in /home/dev/project, ", "seq printed 1 to 3, ", "and VERSION says v3.14.2."]),
}
TOOLFAIL = {
    "main": dict(prompt="Show me the build log, wherever it is.", bad_cmd="cat build.log", miss="logs/build.log",
                 ok_cmd="ls logs-archive", ok_out="build-2026.log", files={"logs-archive/build-2026.log": "build ok\n"},
                 fin=["build.log is not in the project root ", "nor in logs/; the only log is ",
                      "logs-archive/build-2026.log."],
                 mid=["That failed; ", "trying logs/."]),
    "v2": dict(prompt="Run the test script and tell me what went wrong.", bad_cmd="sh run-tests.sh",
               miss="tests/report.txt", ok_cmd="echo recovered-after-failure", ok_out="recovered-after-failure",
               files={"run-tests.sh": "echo 'test_parse FAILED' >&2\nexit 3\n"},
               fin=["The script exits with code 3 ", "after test_parse failed, ", "and it wrote no report."],
               mid=["The script failed; ", "looking for its report."]),
}
READSEARCH = {
    "main": dict(files={"cmd/app/main.go": "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tfmt.Println(\"app\")\n}\n",
                        "internal/store/store.go": "package store\n\n// TODO: add a cache\nfunc Get(k string) string { return k }\n",
                        "README.md": "# app\n\nTODO: write docs\n"},
                 prompt="Find the Go files, grep for TODO comments, and show me the start of main.go.",
                 fin=["There are two Go files; ", "TODOs are in store.go and README.md; ", "main.go starts with package main."]),
    "v2": dict(files={"web/index.html": "<html><body>hi</body></html>\n", "web/app.js": "export const port = 3000; // FIXME\n",
                      "web/style.css": "body { margin: 0 }\n", "server.py": "PORT = 3000  # FIXME make configurable\n"},
               prompt="Which JavaScript files exist, where is FIXME mentioned, and what is in server.py?",
               fin=["Only web/app.js is JavaScript; ", "FIXME appears in app.js and server.py, ", "which sets PORT = 3000."]),
}
PLAN = {
    "main": dict(prompt="Plan and do it: create out/, write a marker file into it, then list it.",
                 items=["Create the out directory", "Write the marker file", "List the directory"],
                 cmd="mkdir -p out && touch out/marker && ls out",
                 fin=["All three tasks are done: ", "out/ exists and ", "holds the marker file."], files={}),
    "v2": dict(prompt="Make a plan, then count the lines of every .txt file here.",
               items=["Find the text files", "Count their lines"], cmd="wc -l *.txt",
               fin=["Both tasks are done: ", "a.txt has 2 lines ", "and b.txt has 1."],
               files={"a.txt": "one\ntwo\n", "b.txt": "three\n"}),
}
LONGREASON = {
    "main": dict(prompt="Explain, with care, why naïve UTF-8 slicing breaks strings like 'café 👩‍💻'.",
                 think=THINK_LONG_MAIN, paras=PARAS_MAIN),
    "v2": dict(prompt="Compare sorting strings by bytes and by locale, with examples like 'Ærøskøbing' and 'zoë'.",
               think=THINK_LONG_V2, paras=PARAS_V2),
}


def scene(table, set_name, names):
    """The fields `names` (separated by spaces) of a scenario's shared data for one set, in that order."""
    d = table[set_name]
    return [d[n] for n in names.split()]

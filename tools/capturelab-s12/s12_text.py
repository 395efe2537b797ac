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

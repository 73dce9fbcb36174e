"""YAML texts built from a small grammar, for the oracle in run.py.

The edited texts of run.py stay close to the files users write; they seldom reach what no example
holds: quoted values over several lines, block scalars with chomping and indentation indicators,
tags and anchors before every kind of value, explicit `?` keys, flow collections over lines, CRLF
line ends, a byte order mark, the YAML 1.1 line breaks and control characters. These texts are
built to hold them: a document of nested block and flow collections whose scalars are drawn from
the forms YAML gives different meanings to, most of them well formed, some not (an indentation
one column off, a tab where YAML allows none), so that both verdicts are exercised.

Deterministic: `texts(seed, n)` gives the same texts for the same seed and count.
"""

from __future__ import annotations

import random

# Plain scalars: YAML 1.1 and 1.2 types, the words PyYAML types and YAML 1.2 does not, numbers in
# every base, and text with the indicators YAML gives a meaning to inside it.
PLAIN = [
    "yes", "No", "on", "OFF", "y", "n", "~", "null", "Null", "NULL", "true", "False", "TRUE", "Yes", "ON", "oFF", "tRue",
    "1_000", "0o17", "017", "0777", "08", "0x1F", "0x_1", "0b101", "1:30", "190:20:30", "-1:30", "+1", "-1", "-0", "0",
    "-.5", "+.5", "0.", ".inf", "-.Inf", ".NaN", ".nan", "inf", "nan", "1e3", "1.0e+3", "1.0E3", "12e03", "+0.5e-3", "1e", "e3",
    "1.5", "1__0", "1,000", "1.2.3", "0.0.0.0", "::1", "2001-12-14", "2001-12-14 21:59:43.10 -5",
    "=", "<<", "a b", "a#b", "a #b", "-a", "?a", ":a", "a:b", "a,b", "@x", "`x", "x y z", "100%", "é", "日本", "a\\b",
    "'x", "x'", "\"x", "a 'b", 'a "b', "!x", "&x", "*x", "|x", ">x", "[x", "x]", "{x", "x}", "--", "---x", "...x", "a -b", "a - b",
    "prod", "cpu", "2Gi", "500m",
]
# Keys: names, and the words and numbers a YAML 1.1 reader types.
KEYS = [
    "a", "b", "name", "cpu", "memory", "yes", "on", "1", "0x1", "null", "~", "true", "x y", "k-1", "k_2", "é",
    '"q"', "'s'", '"a:b"', "'#c'", '""', "''", "key", "1.5", "2001-12-14",
]
DOUBLE_QUOTED_PARTS = [
    "a", "b c", "\\n", "\\t", "\\x41", "\\u00e9", "\\U0001F600", "\\/", "\\ ", "\\_", "\\N", "\\L", "\\P", "\\e",
    "\\a", "\\b", "\\v", "\\f", "\\r", '\\"', "\\\\", "'", "#", ": ", " ", "  ", "\\x7f", "\\x80", "\\u2028", "\\u0085",
]
SINGLE_QUOTED_PARTS = ["a", "b c", "''", "\\n", "#", ": ", '"', " ", "  "]
BLOCK_LINES = ["text", "a b", "# not comment", "- x", "k: v", "x  ", "\ttab"]
# Rare characters: a YAML 1.1 line break, a control character, a byte order mark inside the text.
ODD_CHARACTERS = ["\u2028", "\u0085", "\u2029", "\x1b", "\x7f", "\x90", "\ufeff", "\t"]


class Generator:
    def __init__(self, rng: random.Random) -> None:
        self.r = rng
        self.anchors: list[str] = []
        # Small documents as often as large ones: one construct a reader refuses refuses the whole
        # text, and the texts both read are where a different reading shows.
        self.depth = rng.choice([1, 2, 2, 3, 4])

    def chance(self, p: float) -> bool:
        return self.r.random() < p

    def comment(self) -> str:
        if not self.chance(0.2):
            return ""
        return self.r.choice([" # c", "  #c:d", " #", "\t# t" if self.chance(0.1) else " # t"])

    def properties(self) -> str:
        """A tag and an anchor, each now and then, as written before a value."""
        out = ""
        if self.chance(0.08):
            name = self.r.choice(["a", "x1", "n-2", "A_b"])
            out += "&" + name + " "
            self.anchors.append(name)
        if self.chance(0.05):
            out = self.r.choice(["!!str ", "!!int ", "!!float ", "!!bool ", "!!null ", "! ", "!!map ", "!!seq "]) + out
        return out

    def line_break(self, indent: int) -> str:
        """A line break inside a quoted value, with the next line's indentation and empty lines."""
        return self.r.choice(["\n", "\n\n", " \n", "\n  \n", "\n\n\n"]) + " " * (indent + 1) + self.r.choice(["", "", " "])

    def double_quoted(self, indent: int) -> str:
        parts = []
        for _ in range(self.r.randint(0, 4)):
            roll = self.r.random()
            if roll < 0.2:
                parts.append(self.line_break(indent))
            elif roll < 0.25:
                parts.append("\\" + self.line_break(indent))  # an escaped line break
            else:
                parts.append(self.r.choice(DOUBLE_QUOTED_PARTS))
        return '"' + "".join(parts) + '"'

    def single_quoted(self, indent: int) -> str:
        parts = []
        for _ in range(self.r.randint(0, 4)):
            parts.append(self.line_break(indent) if self.chance(0.25) else self.r.choice(SINGLE_QUOTED_PARTS))
        return "'" + "".join(parts) + "'"

    def plain_over_lines(self, indent: int) -> str:
        out = self.r.choice(PLAIN[:60])
        for _ in range(self.r.randint(1, 3)):
            out += self.r.choice(["\n", "\n\n", " \n"]) + " " * (indent + self.r.randint(1, 3))
            out += self.r.choice(["b", "c d", "e:f", "g #h", "- x", "1", "yes", "x # c"])
        return out

    def block_scalar(self, indent: int) -> str:
        chomp = self.r.choice(["", "", "-", "+"])
        digit = self.r.choice(["", "", "", "1", "2", "3"])
        header = self.r.choice(["|", ">"]) + self.r.choice([chomp + digit, digit + chomp])
        content = indent + (int(digit) if digit else self.r.randint(1, 3))
        lines = []
        for _ in range(self.r.randint(0, 4)):
            if self.chance(0.2):
                lines.append(self.r.choice(["", " " * max(content - 1, 0), " " * (content + 1)]))
            else:
                line = self.r.choice(BLOCK_LINES)
                if line.startswith("\t") and not self.chance(0.2):
                    line = "text"
                lines.append(" " * (content + self.r.choice([0, 0, 0, 1, 2])) + line)
        if self.chance(0.4):
            lines.append("")
        if lines and self.chance(0.1):
            lines.insert(0, "")
        return header + self.comment() + ("\n" + "\n".join(lines) if lines else "")

    def scalar(self, indent: int, in_flow: bool = False) -> str:
        roll = self.r.random()
        if self.anchors and roll < 0.05:
            return "*" + self.r.choice(self.anchors)
        props = self.properties()
        if roll < 0.45 or (in_flow and roll >= 0.7):
            return props + self.r.choice(PLAIN)
        if roll < 0.6:
            return props + self.double_quoted(indent)
        if roll < 0.7:
            return props + self.single_quoted(indent)
        if roll < 0.82:
            return props + self.plain_over_lines(indent)
        return props + self.block_scalar(indent)

    def flow(self, depth: int, indent: int) -> str:
        # Continuation lines indented past the block they stand in, or now and then not (YAML 1.2
        # wants them right of it; YAML 1.1 readers do not look).
        gap = " " * (indent + 1 if self.chance(0.9) else self.r.choice([0, indent]))
        if self.chance(0.5):
            items = []
            for _ in range(self.r.randint(0, 3)):
                roll = self.r.random()
                if roll < 0.1:  # a single-pair mapping inside [ ]
                    items.append(self.r.choice(KEYS) + self.r.choice([": ", ":"]) + self.flow_node(depth + 1, indent))
                elif roll < 0.13:
                    items.append(self.r.choice(["", " ", "# c\n" + gap]))  # an empty entry, or a comment
                else:
                    items.append(self.flow_node(depth + 1, indent))
            separator = self.r.choice([", ", ",", " , ", ",\n" + gap, "\n" + gap + ", "])
            return self.properties() + "[" + separator.join(items) + self.r.choice(["", "", ",", " "]) + "]"
        items = []
        for _ in range(self.r.randint(0, 3)):
            key = self.r.choice(KEYS)
            if self.chance(0.15):
                items.append(key)  # a key without a value
            elif self.chance(0.05):
                items.append("? " + key + self.r.choice([" : ", ": ", ""]) + self.flow_node(depth + 1, indent))
            else:
                items.append(key + self.r.choice([": ", ":  ", ":\n" + gap]) + self.flow_node(depth + 1, indent))
        separator = self.r.choice([", ", ",", " , ", ",\n" + gap])
        return self.properties() + "{" + self.r.choice(["", " "]) + separator.join(items) + self.r.choice(["", "", ",", " "]) + "}"

    def flow_node(self, depth: int, indent: int) -> str:
        if depth < self.depth and self.chance(0.25):
            return self.flow(depth, indent)
        return self.scalar(indent, in_flow=True)

    def value(self, depth: int, indent: int) -> str:
        """What follows a key's ':' or an item's '-', the separator included."""
        roll = self.r.random()
        if depth < self.depth and roll < 0.3:
            props = self.properties().strip()
            return (" " + props if props else "") + self.comment() + "\n" + self.mapping(depth + 1, indent + self.r.choice([1, 2, 2, 2, 4]))
        if depth < self.depth and roll < 0.45:
            props = self.properties().strip()
            return (" " + props if props else "") + self.comment() + "\n" + self.sequence(depth + 1, indent + self.r.choice([0, 0, 2, 2, 1]))
        if depth < self.depth and roll < 0.55:
            return " " + self.flow(depth, indent) + self.comment()
        if roll < 0.6:
            return self.comment()  # no value: null
        return self.r.choice([" ", " ", " ", "  ", " \t" if self.chance(0.1) else " "]) + self.scalar(indent) + self.comment()

    def key(self) -> str:
        """A key as written before its ':' (an anchor or tag on it now and then, or an alias)."""
        if self.anchors and self.chance(0.02):
            return "*" + self.r.choice(self.anchors) + " "  # an alias as a key needs the space
        if self.chance(0.01):  # a quoted key over two lines: no implicit key may span lines
            return self.r.choice(['"a\n b"', "'a\n\n b'", '"a\\\n b"'])
        if self.chance(0.005):  # an implicit key is at most 1,024 characters long
            return "k" * self.r.choice([1023, 1024, 1025, 1100])
        return self.properties() + self.r.choice(KEYS) if self.chance(0.1) else self.r.choice(KEYS)

    def mapping(self, depth: int, indent: int) -> str:
        out, used = [], set()
        for _ in range(self.r.randint(1, 4)):
            key = self.key()
            if key in used:
                continue
            used.add(key)
            roll = self.r.random()
            if roll < 0.04:  # an explicit key
                out.append(" " * indent + "? " + key + "\n" + " " * indent + ":" + self.value(depth, indent))
            elif roll < 0.045:  # an explicit key that is a block scalar or a block list
                explicit = (self.block_scalar(indent) if self.chance(0.5)
                            else "\n" + self.sequence(depth + 1, indent + 2) if depth < self.depth else "- a")
                out.append(" " * indent + "? " + explicit + "\n" + " " * indent + ":" + self.value(depth, indent))
            elif roll < 0.05:  # an explicit key that is a collection, or with its value on the same line
                out.append(" " * indent + "? " + self.flow(depth, indent) + self.r.choice([" : ", "\n" + " " * indent + ": "])
                           + self.scalar(indent))
            else:  # a key, now and then with white space before its ':'
                out.append(" " * indent + key + self.r.choice(["", "", "", "", " ", "  "]) + ":" + self.value(depth, indent))
            if self.chance(0.1):
                out.append(self.r.choice(["", " " * indent + "# c", "#c"]))
        return "\n".join(out)

    def sequence(self, depth: int, indent: int) -> str:
        out = []
        for _ in range(self.r.randint(1, 3)):
            roll = self.r.random()
            gap = self.r.choice([1, 1, 1, 1, 2, 3])  # the spaces after the '-'
            if depth < self.depth and roll < 0.25:  # a mapping in the item, starting on the '-' line
                out.append(" " * indent + "-" + " " * gap + self.mapping(depth + 1, indent + 1 + gap)[indent + 1 + gap :])
            elif depth < self.depth and roll < 0.35:  # a list in the item
                out.append(" " * indent + "-" + " " * gap + self.sequence(depth + 1, indent + 1 + gap)[indent + 1 + gap :])
            else:
                out.append(" " * indent + "-" + self.value(depth, indent))
        return "\n".join(out)

    def document(self) -> str:
        roll = self.r.random()
        body = (self.mapping(0, 0) if roll < 0.75 else self.sequence(0, 0) if roll < 0.85
                else self.flow(0, 0) if roll < 0.95 else self.scalar(0))
        if self.chance(0.1):
            body = "---" + self.r.choice(["\n", " "]) + body
        if self.chance(0.05):
            body += "\n..."
        if self.chance(0.03):  # a second document, which both readers refuse for a single one
            body += self.r.choice(["\n---\n", "\n...\n---\n", "\n--- "]) + self.mapping(0, 0)
        if self.chance(0.03):
            body = "%YAML 1.1\n---\n" + body
        if self.chance(0.5):
            body += "\n"
        if self.chance(0.03):
            i = self.r.randrange(len(body) + 1)
            body = body[:i] + self.r.choice(ODD_CHARACTERS) + body[i:]
        if self.chance(0.05):
            body = body.replace("\n", "\r\n")
        if self.chance(0.03):
            body = "\ufeff" + body
        return body


def texts(seed: int, n: int) -> list[str]:
    rng = random.Random(f"grammar:{seed}")
    return [Generator(rng).document() for _ in range(n)]

#!/usr/bin/env python3
"""Writes the seed corpora of the fuzz targets (tests/fuzz/corpus/<target>/).

parser: every statement of the CQL logic tests and of the seed schemas, one file each.
value:  valid serialized values, one per type of fuzz_checks.cc's list (first byte = index).
Run from anywhere; rewrites both folders. The output is committed; rerun after adding tests.
"""
import hashlib
import os
import re
import struct

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CORPUS = os.path.join(ROOT, "tests", "fuzz", "corpus")


def write(target, data):
    folder = os.path.join(CORPUS, target)
    os.makedirs(folder, exist_ok=True)
    name = hashlib.sha1(data).hexdigest()[:16]
    with open(os.path.join(folder, name), "wb") as f:
        f.write(data)


def parser_corpus():
    for dirpath, _, files in os.walk(os.path.join(ROOT, "tests", "cql")):
        for file in files:
            if not file.endswith(".test"):
                continue
            lines = open(os.path.join(dirpath, file), encoding="utf-8").read().split("\n")
            i = 0
            while i < len(lines):
                if lines[i].startswith("statement"):
                    j = i + 1
                    body = []
                    while j < len(lines) and lines[j].strip() and lines[j].strip() != "----":
                        body.append(lines[j])
                        j += 1
                    write("parser", "\n".join(body).encode("utf-8"))
                    i = j
                else:
                    i += 1
    seeds = os.path.join(ROOT, "tests", "data", "seeds")
    for file in os.listdir(seeds):
        text = open(os.path.join(seeds, file), encoding="utf-8").read()
        for statement in re.split(r";\s*\n", text):
            if statement.strip():
                write("parser", (statement.strip() + ";").encode("utf-8"))


def b(n):  # [bytes]
    return struct.pack(">i", len(n)) + n


def value_corpus():
    text = lambda s: s.encode("utf-8")
    values = {
        0: [b"hello", b""],
        1: [struct.pack(">q", -1), struct.pack(">q", 2**63 - 1)],
        2: [b"\x00\xff\x10", b""],
        3: [b"\x01", b"\x00"],
        4: [struct.pack(">q", 42)],
        5: [struct.pack(">i", 2) + b"\x00\x96", struct.pack(">i", -3) + b"\xff"],
        6: [struct.pack(">d", 3.5), struct.pack(">d", float("nan"))],
        7: [struct.pack(">f", -0.0), struct.pack(">f", float("inf"))],
        8: [struct.pack(">i", -2**31)],
        9: [struct.pack(">q", 1430659854234)],
        10: [bytes.fromhex("123e4567e89b12d3a456426614174000")],
        11: [text("Zürich ☃"), b"a\x00b"],
        12: [b"\xff\x7f", b"\x00\x80", b"\x01" * 20],
        13: [bytes.fromhex("50554d6e29bb11e5b345feff819cdc9f")],
        14: [bytes([127, 0, 0, 1]), bytes(15) + b"\x01"],
        15: [struct.pack(">I", 2**31), struct.pack(">I", 2**31 + 19753)],
        16: [struct.pack(">q", 29574123456789)],
        17: [struct.pack(">h", 101)],
        18: [b"\x80"],
        19: [b"\x02\x04\x00", b"\x00\x00\x00", b"\x01\x01\xc1\x00"],
        20: [struct.pack(">i", 2) + b(struct.pack(">i", 1)) + b(struct.pack(">i", 2))],
        21: [struct.pack(">i", 2) + b(b"a") + b(b"b")],
        22: [struct.pack(">i", 1) + b(b"home") + b(b(b"1 Main St") + b(b"Springfield"))],
        23: [b(struct.pack(">i", 1)) + b(b"x") + struct.pack(">i", -1)],
        24: [struct.pack(">i", 1) + b(struct.pack(">i", 1) + b(b"\x05"))],
        25: [struct.pack(">i", 1) + b(struct.pack(">i", 1) + b"\x0f") +
             b(struct.pack(">i", 1) + b(bytes.fromhex("50554d6e29bb11e5b345feff819cdc9f")))],
        26: [struct.pack(">fff", 1.0, 2.5, -3.0)],
        27: [b"\x01a\x02bc"],
        28: [b(b"11 Rue de Rivoli") + b(b"Paris") + struct.pack(">i", -1)],
    }
    for index, items in values.items():
        for item in items:
            write("value", bytes([index]) + item)


if __name__ == "__main__":
    for target in ("parser", "value"):
        folder = os.path.join(CORPUS, target)
        if os.path.isdir(folder):
            for f in os.listdir(folder):
                os.remove(os.path.join(folder, f))
    parser_corpus()
    value_corpus()

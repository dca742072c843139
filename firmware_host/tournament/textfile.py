"""A pairing list or TRF file as the arbiter's program saved it: its bytes read as text.

Files are read as UTF-8 (with or without Excel's byte-order mark). A file saved by Excel as
"CSV" (not "CSV UTF-8") or by an older pairing program is Windows-1252 (cp1252) or ISO 8859-1
(Latin-1): a name with an accent is then a byte UTF-8 does not allow, and the file is refused
with the line and column of that byte, what it reads as in Windows-1252, and what to do (save
it as UTF-8, or say its encoding: ``--encoding cp1252``, or the console's choice). A name is
never guessed into the records in the wrong alphabet (a Polish or Czech file in Windows-1250
reads as other letters in Windows-1252). A spreadsheet saved as ``.xlsx``, or any file with
NUL bytes, is refused as not a text file.

>>> print(decode("Hélène".encode("cp1252"))[1].replace(": save", ":\\nsave"))
line 1, column 2: byte 0xE9 is not UTF-8 (in Windows-1252: 'Hélène'):
save the file as UTF-8 (Excel: CSV UTF-8), or give its encoding (cp1252)
>>> decode("Hélène".encode("cp1252"), "cp1252")
('Hélène', None)
"""

from __future__ import annotations

__all__ = ["ENCODINGS", "decode"]

#: The encodings a file may be read in, with their names for people.
ENCODINGS = {"utf-8": "UTF-8", "cp1252": "Windows-1252 (Excel)",
             "latin-1": "ISO 8859-1 (Latin-1)"}
#: The largest file read (bytes): a TRF of a 1,000-player open is about 300 kB.
MAX_BYTES = 2_000_000


def _where(data: bytes, offset: int) -> tuple[int, int, bytes]:
    """The line and column (from 1) of byte ``offset``, and that line's bytes."""
    start = data.rfind(b"\n", 0, offset) + 1
    end = data.find(b"\n", offset)
    line = data.count(b"\n", 0, offset) + 1
    return line, offset - start + 1, data[start:end if end >= 0 else len(data)]


def decode(data: bytes, encoding: str = "utf-8") -> tuple[str | None, str | None]:
    """The text of a file's ``data`` and None, or None and why it cannot be read (one line
    naming where).

    Raises:
        ValueError: ``encoding`` is not one of :data:`ENCODINGS`.
    """
    if encoding not in ENCODINGS:
        raise ValueError(f"encoding {encoding!r}: one of {', '.join(ENCODINGS)}")
    if len(data) > MAX_BYTES:
        return None, f"the file has more than {MAX_BYTES} bytes: not a pairing list"
    if data.startswith(b"PK\x03\x04"):
        return None, "a spreadsheet (.xlsx), not a text file: save it as CSV UTF-8"
    if b"\x00" in data:
        line, column, _ = _where(data, data.index(b"\x00"))
        return None, (f"line {line}, column {column}: a NUL byte: not a text file (save it "
                      "as CSV UTF-8)")
    if encoding == "utf-8":
        try:
            return data.decode("utf-8-sig"), None
        except UnicodeDecodeError as exc:
            line, column, raw = _where(data, exc.start)
            shown = raw.decode("cp1252", "replace").strip()[:60]
            return None, (f"line {line}, column {column}: byte 0x{data[exc.start]:02X} is "
                          f"not UTF-8 (in Windows-1252: {shown!r}): save the file as UTF-8 "
                          "(Excel: CSV UTF-8), or give its encoding (cp1252)")
    try:
        return data.decode(encoding), None
    except UnicodeDecodeError as exc:
        line, column, _ = _where(data, exc.start)
        return None, (f"line {line}, column {column}: byte 0x{data[exc.start]:02X} is not "
                      f"{ENCODINGS[encoding]}: save the file as UTF-8 (Excel: CSV UTF-8)")

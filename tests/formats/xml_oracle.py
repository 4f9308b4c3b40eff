"""An independent oracle for the XML readers: the standard library's ElementTree.

Written from the format specifications, not from the readers: ids and texts
by tree walking, codes stripped by element name.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

X1 = "{urn:oasis:names:tc:xliff:document:1.2}"
X2 = "{urn:oasis:names:tc:xliff:document:2.0}"
XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"

#: elements whose content is code, not text
CODE_CONTENT = {"bpt", "ept", "ph", "it", "ut", "sub"}


def local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def strip(el, code_content=CODE_CONTENT) -> str:
    """Text of an element: its text and its children's, skipping code content; newlines as spaces."""
    out = [el.text or ""]
    for ch in el:
        name = local(ch.tag)
        if name == "cp":
            out.append(chr(int(ch.get("hex"), 16)))
        elif name not in code_content:
            out.append(strip(ch, code_content))
        out.append(ch.tail or "")
    return "".join(out).replace("\n", " ")


def strip_xliff2(el) -> str:
    # XLIFF 2 ph/sc/ec are empty; nothing is code content
    return strip(el, code_content=set())


def xliff1_units(data: bytes):
    """[(key, source, target-or-None)] for the unsegmented trans-units of an XLIFF 1.2 file."""
    root = ET.fromstring(data)
    out = []
    for f in root.iter(X1 + "file"):
        orig = f.get("original") or ""
        for tu in f.iter(X1 + "trans-unit"):
            if tu.get("translate") == "no":
                continue
            src = tu.find(X1 + "source")
            tgt = tu.find(X1 + "target")
            key = f"{orig}/{tu.get('id')}" if orig else tu.get("id")
            out.append((key, strip(src), None if tgt is None else strip(tgt)))
    return out


def xliff2_segments(data: bytes):
    root = ET.fromstring(data)
    out = []
    for f in root.iter(X2 + "file"):
        fid = f.get("id") or ""
        for u in f.iter(X2 + "unit"):
            segs = u.findall(X2 + "segment")
            for i, s in enumerate(segs):
                key = f"{fid}/{u.get('id')}"
                if len(segs) > 1:
                    key += "#" + (s.get("id") or str(i + 1))
                src = s.find(X2 + "source")
                tgt = s.find(X2 + "target")
                out.append((key, strip_xliff2(src), None if tgt is None else strip_xliff2(tgt)))
    return out


def tmx_segments(data: bytes):
    root = ET.fromstring(data)
    header = root.find("header")
    srclang = (header.get("srclang") if header is not None else None) or ""
    out = []
    for n, tu in enumerate(root.iter("tu"), 1):
        tuvs = [(v.get(XML_LANG) or v.get("lang") or "", v.find("seg")) for v in tu.findall("tuv")]
        tuvs = [(lang, seg) for lang, seg in tuvs if seg is not None]
        src = next((t for t in tuvs if t[0].lower() == srclang.lower()), None) or tuvs[0]
        base = tu.get("tuid") or f"#{n}"
        k = 0
        for t in tuvs:
            if t is src:
                continue
            k += 1
            out.append((base if k == 1 else f"{base}#{k}", strip(src[1]), strip(t[1]), t[0]))
    return out


def stripped_span(file_text: str, span, xliff2: bool = False, ns: str = "") -> str:
    """The file text inside a target span, parsed as XML and stripped the oracle's way."""
    raw = file_text[span[0]:span[1]]
    wrapped = f'<t xmlns="{ns}">{raw}</t>' if ns else f"<t>{raw}</t>"
    el = ET.fromstring(wrapped.encode("utf-8"))
    return strip_xliff2(el) if xliff2 else strip(el)

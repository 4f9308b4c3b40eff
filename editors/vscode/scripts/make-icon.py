"""Draw images/icon.png (128x128): lines of text, each with its score hint
at the end, on a rounded dark-blue tile.  Plain zlib, no imaging library."""

import struct
import zlib
from pathlib import Path

W = H = 128
BG, TEXT = (31, 58, 95), (222, 230, 240)
GREEN, ORANGE, RED = (46, 184, 110), (240, 160, 60), (226, 84, 84)


def inside_rounded(x: float, y: float, x0: float, y0: float, x1: float, y1: float, r: float) -> bool:
    cx = min(max(x, x0 + r), x1 - r)
    cy = min(max(y, y0 + r), y1 - r)
    return (x - cx) ** 2 + (y - cy) ** 2 <= r * r and x0 <= x <= x1 and y0 <= y <= y1


def coverage(x: int, y: int, shape) -> float:
    n = 4
    hits = sum(shape(x + (i + 0.5) / n, y + (j + 0.5) / n) for i in range(n) for j in range(n))
    return hits / (n * n)


# (text length, hint colour, hint length) for each line
ROWS = [(58, GREEN, 22), (44, ORANGE, 22), (66, RED, 14), (36, GREEN, 22)]
shapes = [(lambda x, y: inside_rounded(x, y, 4, 4, 124, 124, 22), BG)]
for i, (tl, colour, hl) in enumerate(ROWS):
    y0 = 24 + i * 22
    shapes.append((lambda x, y, y0=y0, tl=tl: inside_rounded(x, y, 18, y0, 18 + tl, y0 + 10, 5), TEXT))
    x0 = 18 + tl + 6
    shapes.append((lambda x, y, y0=y0, x0=x0, hl=hl: inside_rounded(x, y, x0, y0 - 1, x0 + hl, y0 + 11, 6), colour))

rows = []
for y in range(H):
    row = bytearray([0])
    for x in range(W):
        r = g = b = a = 0.0
        for shape, colour in shapes:
            c = coverage(x, y, shape)
            if c:
                r, g, b = (r * (1 - c) + colour[0] * c, g * (1 - c) + colour[1] * c, b * (1 - c) + colour[2] * c)
                a = a + (1 - a) * c
        # colours above were blended over black: undo that for the alpha channel
        if a:
            r, g, b = r / a if a < 1 else r, g / a if a < 1 else g, b / a if a < 1 else b
        row += bytes([min(255, round(r)), min(255, round(g)), min(255, round(b)), round(a * 255)])
    rows.append(bytes(row))


def chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", W, H, 8, 6, 0, 0, 0))
png += chunk(b"IDAT", zlib.compress(b"".join(rows), 9)) + chunk(b"IEND", b"")
out = Path(__file__).resolve().parent.parent / "images" / "icon.png"
out.parent.mkdir(exist_ok=True)
out.write_bytes(png)
print(out, len(png), "bytes")

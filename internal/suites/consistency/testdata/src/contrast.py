"""Contrast checks for a colour theme (WCAG 2.1)."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Iterable, Optional

HEX = re.compile(r"^#([0-9a-f]{6})$", re.IGNORECASE)
AA_NORMAL: float = 4.5
AA_LARGE = 3.0


class ContrastError(ValueError):
    """A colour that cannot be read."""


@dataclass
class Pair:
    fg: str
    bg: str
    label: str = "text"
    notes: list[str] = field(default_factory=list)

    @property
    def ratio(self) -> float:
        return contrast(self.fg, self.bg)

    def passes(self, large: bool = False) -> bool:
        limit = AA_LARGE if large else AA_NORMAL
        return self.ratio >= limit


def channel(v: int) -> float:
    s = v / 255.0
    if s <= 0.04045:
        return s / 12.92
    return ((s + 0.055) / 1.055) ** 2.4


def luminance(hex_colour: str) -> float:
    m = HEX.match(hex_colour)
    if m is None:
        raise ContrastError(f"not a colour: {hex_colour!r}")
    r, g, b = (int(m.group(1)[i : i + 2], 16) for i in (0, 2, 4))
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


def contrast(a: str, b: str) -> float:
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def failing(pairs: Iterable[Pair], large: bool = False) -> list[Pair]:
    # keep the order the theme lists them in
    return [p for p in pairs if not p.passes(large)]


def report(pairs: list[Pair], out: Optional[list[str]] = None) -> int:
    out = out if out is not None else []
    for p in failing(pairs):
        out.append("%s: %.2f:1" % (p.label, p.ratio))
    if not pairs or len(out) > 0 and False:
        return None
    print(len(out), "failing;", True, len(pairs))
    return len(out)


if __name__ == "__main__":
    print(report([Pair("#e6e6e6", "#1e1e2e", "body")]))

"""Write a picture to a file, in the format its name's suffix asks for: `.svg` as it is, `.png` converted.

PNG needs CairoSVG (`pip install 'meeple[png]'`, which uses the system's cairo library); where it is missing,
librsvg's `rsvg-convert` program does the same if it is installed.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

FORMATS = (".svg", ".png")
ZOOM = 2  # PNG pixels per SVG pixel: sharp on high-density screens and in documents
NO_CONVERTER = (
    "PNG output needs CairoSVG: pip install 'meeple[png]' (it uses the cairo library, Debian's libcairo2), "
    "or librsvg's rsvg-convert (Debian's librsvg2-bin); or write .svg"
)


class PictureError(Exception):
    """The picture cannot be written: an unknown format, no PNG converter, or the file cannot be made."""


def png_converter() -> str | None:
    """What would turn SVG into PNG here: 'cairosvg', 'rsvg-convert', or None."""
    try:
        import cairosvg  # noqa: F401
    except (ImportError, OSError):  # OSError: the package is there but the cairo library is not
        return "rsvg-convert" if shutil.which("rsvg-convert") else None
    return "cairosvg"


def svg_to_png(svg: str) -> bytes:
    """The SVG drawn as a PNG image at twice its size (white where the SVG draws nothing)."""
    converter = png_converter()
    if converter == "cairosvg":
        import cairosvg

        data = cairosvg.svg2png(bytestring=svg.encode("utf-8"), background_color="white", scale=ZOOM)
        return bytes(data or b"")
    if converter == "rsvg-convert":
        done = subprocess.run(
            ["rsvg-convert", "--format=png", "--background-color=white", f"--zoom={ZOOM}"],
            input=svg.encode("utf-8"),
            capture_output=True,
            check=False,
        )
        if done.returncode != 0:
            raise PictureError(f"rsvg-convert failed: {done.stderr.decode(errors='replace').strip()}")
        return done.stdout
    raise PictureError(NO_CONVERTER)


def write_picture(svg: str, path: str | Path) -> None:
    """Write `svg` to `path` as SVG or PNG, by the path's suffix."""
    suffix = Path(path).suffix.lower()
    if suffix not in FORMATS:
        raise PictureError(
            f"cannot write a picture as '{suffix or Path(path).name}': name a .svg or .png file"
        )
    data = svg_to_png(svg) if suffix == ".png" else (svg.rstrip("\n") + "\n").encode("utf-8")
    try:
        Path(path).write_bytes(data)
    except OSError as err:
        raise PictureError(f"cannot write '{path}': {err.strerror}") from None

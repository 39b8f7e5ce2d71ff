"""Shared by the tests: moved from view/test_render.py."""

from __future__ import annotations

import xml.etree.ElementTree as ET

SVG = "{http://www.w3.org/2000/svg}"


def texts_with_class(root: ET.Element, css: str) -> list[str]:
    return [el.text or "" for el in root.iter(f"{SVG}text")
            if css in (el.get("class") or "").split()]

"""Weapon rules as BattleScribe, New Recruit and KTDash write them, read into the engine's names.

A Kill Team 2024 ``WR`` cell reads ``Range 8", Hot, Lethal 5+, Piercing 1``; KTDash and the
community ``killteamjson`` files abbreviate (``Rng 8", Hvy (DashOnly), Prc1, Sat``); Kill Team
2021 cells use distance shapes (``Rng ⬟``, ``Torrent ⬤``) and crit rules (``MW3``, ``P1``,
``AP1``). :func:`translate_rules` turns each into the rule text the roster format uses
(``range=8``, ``heavy=dash``, ``piercing=1``) and checks it with the one rule parser,
:func:`solo_ops.core.model.parse_weapon_rule`, so an import can never write a rule the roster
loader would refuse. A rule the engine does not know (``Poison*``, ``Indirect``,
``Anti-PSYKER``) is kept as text and returned, never dropped.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from solo_ops.core.model import WeaponRule, parse_weapon_rule

# Kill Team 2021 distance shapes (and the placeholders of the 2021 killteamjson files).
DISTANCE_SHAPES: dict[str, float] = {
    "▲": 1.0, "△": 1.0, "[TRI]": 1.0,
    "⬤": 2.0, "●": 2.0, "○": 2.0, "[CIRCLE]": 2.0,
    "■": 3.0, "⬛": 3.0, "◼": 3.0, "[SQUARE]": 3.0,
    "⬟": 6.0, "⬠": 6.0, "[PENT]": 6.0,
}

_NUM = r"(\d+(?:\.\d+)?)"

# (pattern on the normalised token, rule name, how the captured value is used)
_NUMBERED: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(p), name) for p, name in (
        (rf"^(?:range|rng){_NUM}\"?$", "range"),
        (rf"^(?:piercingcrits|prccrit|p){_NUM}$", "piercing_crits"),
        (rf"^(?:piercing|prc|ap|armourpiercing|armorpiercing){_NUM}$", "piercing"),
        (rf"^(?:devastating|dev|mw|mortalwounds){_NUM}$", "devastating"),
        (rf"^lethal{_NUM}\+?$", "lethal"),
        (rf"^(?:accurate|acc){_NUM}$", "accurate"),
        (rf"^blast{_NUM}\"?$", "blast"),
        (rf"^(?:torrent|tor){_NUM}\"?$", "torrent"),
        (rf"^(?:limited|lim){_NUM}$", "limited"),
    )
)
_DEVASTATING_DISTANCE = re.compile(rf"^{_NUM}\"(?:devastating|dev|mw){_NUM}$")
_SPLASH = re.compile(rf"^splash{_NUM}$")  # Kill Team 2021: x mortal wounds within ⬤ (2")
_HEAVY = re.compile(r"^(?:heavy|hvy)(?:\((dash|reposition)only\))?$")

_FLAGS: dict[str, str] = {
    "balanced": "balanced", "bal": "balanced",
    "brutal": "brutal",
    "ceaseless": "ceaseless",
    "hot": "hot",
    "punishing": "punishing", "pun": "punishing",
    "relentless": "relentless", "rlt": "relentless",
    "rending": "rending", "rend": "rending", "rnd": "rending",
    "saturate": "saturate", "sat": "saturate",
    "seek": "seek",
    "seeklight": "seek_light",
    "severe": "severe", "sev": "severe",
    "shock": "shock",
    "silent": "silent", "sil": "silent",
    "stun": "stun",
    "limited": "limited=1", "lim": "limited=1",
}

# Rules whose presence means the weapon shoots (for a weapon that has no ⌖/⚔ marker).
RANGED_RULES = ("range", "blast", "torrent", "heavy", "silent", "saturate")


@dataclass
class RuleReading:
    """What one weapon profile's rules cell says: engine rules, and rules kept as text."""

    rules: list[str] = field(default_factory=list)
    unknown: list[str] = field(default_factory=list)

    def parsed(self) -> list[WeaponRule]:
        return [parse_weapon_rule(r) for r in self.rules]

    def value(self, name: str) -> object | None:
        """The value of rule ``name`` (None when absent or a flag)."""
        for rule in self.parsed():
            if rule.name == name:
                return rule.value
        return None

    def has(self, name: str) -> bool:
        return any(rule.name == name for rule in self.parsed())


def split_rules(text: str) -> list[str]:
    """Split a rules cell on commas (and semicolons) outside parentheses; drop empty parts."""
    parts: list[str] = []
    depth = 0
    current = ""
    for ch in str(text):
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth = max(0, depth - 1)
        if ch in ",;" and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += ch
    parts.append(current)
    return [p.strip() for p in parts if p.strip() and p.strip() not in ("-", "–", "—")]


def replace_shapes(text: str) -> str:
    """Kill Team 2021 distance shapes in a rule as inches: ``Rng ⬟`` → ``Rng 6"`` (a move
    such as ``3⬤`` is read by :func:`shape_distance`)."""
    out = str(text)
    for shape, inches in DISTANCE_SHAPES.items():
        out = out.replace(shape, f' {inches:g}"')
    return out


def shape_distance(text: str) -> float | None:
    """A 2021 distance such as ``3⬤`` (three circles, 6"), ``⬟`` or ``2[CIRCLE]``; None when
    the text has no shape."""
    raw = str(text).strip().replace(" ", "")
    for shape, inches in DISTANCE_SHAPES.items():
        if raw.endswith(shape):
            count = raw[: -len(shape)]
            if count == "":
                return inches
            if count.isdigit():
                return int(count) * inches
            return None
    return None


def _normalise(token: str) -> str:
    text = replace_shapes(token)
    text = text.replace("**", "").replace("”", '"').replace("“", '"').replace("″", '"')
    text = text.replace("''", '"').replace("&quot;", '"')
    return re.sub(r"\s+", "", text).lower()


def translate_token(token: str) -> str | None:
    """One rule as the engine names it (``"lethal=5"``), or None when the engine lacks it."""
    key = _normalise(token)
    if key.endswith("*"):
        return None  # a kill team's own rule ("see abilities")
    if key in _FLAGS:
        return _FLAGS[key]
    heavy = _HEAVY.match(key)
    if heavy:
        return f"heavy={heavy.group(1)}" if heavy.group(1) else "heavy"
    match = _DEVASTATING_DISTANCE.match(key)
    if match:
        return f"devastating={match.group(1)}:{match.group(2)}"
    match = _SPLASH.match(key)
    if match:
        return f"devastating=2:{match.group(1)}"
    for pattern, name in _NUMBERED:
        match = pattern.match(key)
        if match:
            return f"{name}={match.group(1)}"
    return None


def translate_rules(tokens: list[str]) -> RuleReading:
    """Every token of a rules cell: engine rules (checked by ``parse_weapon_rule``; the first
    of a repeated rule is kept, except two Accurate which make Accurate 2) and the rest as
    text."""
    reading = RuleReading()
    seen: dict[str, int] = {}
    for token in tokens:
        text = translate_token(token)
        if text is None:
            if token not in reading.unknown:
                reading.unknown.append(token)
            continue
        try:
            rule = parse_weapon_rule(text)
        except ValueError:
            reading.unknown.append(token)
            continue
        if rule.name in seen:
            if rule.name == "accurate":  # 002: stacking Accurate x is Accurate 2
                reading.rules[seen[rule.name]] = "accurate=2"
            continue
        seen[rule.name] = len(reading.rules)
        reading.rules.append(rule.text())
    return reading

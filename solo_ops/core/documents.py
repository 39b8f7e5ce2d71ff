"""Parsing the YAML and JSON documents players write: strict, bounded, and clear when broken.

This module turns text into plain data and never touches a file (files are opened by
:mod:`solo_ops.io.reading`: regular files only, at most the limit of their kind).

The YAML loader is PyYAML's safe loader with these changes:

- a key repeated in the same mapping is an error (PyYAML would silently keep the last one,
  which for a d6 table means a lost face);
- dates stay text (``notes: 2024-05-01`` is the text, not a date no save could hold);
- the work any file can cause is bounded (see "Limits of the files" in ``docs/guide.md``):
  at most :data:`MAX_FILE_BYTES` bytes, :data:`MAX_DEPTH` levels of nesting, :data:`MAX_ALIASES`
  aliases and :data:`MAX_NODES` values once aliases are expanded (so an 827-byte "billion
  laughs" file is refused at once instead of taking gigabytes), no alias inside itself;
- every number is finite and within :data:`MAX_INTEGER` (NaN, infinities, ``1e999`` and
  4,300-digit numbers are refused, naming the field);

Every failure becomes an :class:`~solo_ops.core.errors.InputError` naming the file and, when
known, the line or the field.

Two loaders read the text (:data:`LOADERS`): first the strict loader over libyaml's C scanner
and parser (PyYAML's wheels carry it; about three times faster: a shipped scenario with its
board, roster and squad in 52-57 ms of CPU against 150), then, for any text the first refuses,
the pure-Python one, whose error is the one named. Both compose, check and build the data with
the same Python code, so a text both read gives the same data (tests/io/test_yaml_two_readers.py:
every shipped file, random data in every style PyYAML writes, randomly broken texts). libyaml
reads a few texts PyYAML's own scanner refuses (about 1 in 100 shipped texts broken at random:
a tab inside a plain value, ``?`` inside a flow mapping's key); those are read, and whatever
they hold is then checked like any other document.
"""

from __future__ import annotations

import json
import math
from typing import Any, ClassVar

import yaml

from solo_ops.core.errors import InputError, clip, excerpt
from solo_ops.core.limits import FILES

MAX_FILE_BYTES = FILES["document"].bytes
"""Largest document read (256 KiB; the biggest shipped file is under 6 KiB): the ``document``
limit of :data:`solo_ops.core.limits.FILES`."""
MAX_DEPTH = 40
"""Deepest nesting of lists and mappings (shipped files nest at most 7 deep)."""
MAX_ALIASES = 200
"""Most ``*alias`` references in one YAML document."""
MAX_NODES = 100_000
"""Most values in one document once every alias is expanded (shipped files: under 2,000)."""
MAX_SAVED_VALUES = 4_000_000
"""Most values in a save, campaign save or event log (an upper bound counted before parsing,
:func:`json_parts`): the largest legal game's save after its first turning point holds about
52,000, its log about 62,000 (``bench/largest_game.py``), so twelve turning points — the most
a scenario may ask for — stay far below; 4 million empty lists would take the parser 400 MB."""
MAX_INTEGER = 2**256 - 1
"""Largest whole number (either sign) a document may hold: 78 digits, so a seed drawn from the
operating system (128 bits) or chosen up to the command line's bound (256 bits) is written and
read back in scenarios and saves; every count and characteristic has its own, far smaller
limit (:mod:`solo_ops.core.limits`)."""

_TIMESTAMP = "tag:yaml.org,2002:timestamp"


class _Strict:
    """What makes a loader strict (mixed into both loaders below, before PyYAML's classes):
    no dates, the bounds on nesting, aliases and size, and the counts they keep."""

    # (the stubs declare an instance variable; PyYAML reads it from the class)
    yaml_implicit_resolvers: ClassVar[dict[Any, list[Any]]] = {
        first: [(tag, regexp) for tag, regexp in resolvers if tag != _TIMESTAMP]
        for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
    }

    def _start_counts(self) -> None:
        self._depth = 0
        self._nodes = 0
        self._aliases = 0
        self._composing: set[str] = set()

    @property
    def aliases(self) -> int:
        """How many ``*alias`` references the document used."""
        return self._aliases

    @property
    def nodes(self) -> int:
        """How many values the document holds (its scalars, lists and mappings)."""
        return self._nodes

    def _refuse(self, problem: str) -> yaml.composer.ComposerError:
        mark = self.peek_event().start_mark if self.check_event() else None  # type: ignore[attr-defined]
        return yaml.composer.ComposerError(None, None, problem, mark)

    def compose_node(self, parent: Any, index: Any) -> Any:
        if self.check_event(yaml.AliasEvent):  # type: ignore[attr-defined]
            self._aliases += 1
            if self._aliases > MAX_ALIASES:
                raise self._refuse(f"more than {MAX_ALIASES} aliases")
            anchor = self.peek_event().anchor  # type: ignore[attr-defined]
            if anchor in self._composing:
                raise self._refuse(f"alias *{clip(anchor)} is used inside itself")
            return super().compose_node(parent, index)  # type: ignore[misc]
        self._nodes += 1
        if self._nodes > MAX_NODES:
            raise self._refuse(f"more than {MAX_NODES} values")
        self._depth += 1
        if self._depth > MAX_DEPTH:
            raise self._refuse(f"nested more than {MAX_DEPTH} levels deep")
        anchor = getattr(self.peek_event(), "anchor", None)  # type: ignore[attr-defined]
        if anchor is not None:
            self._composing.add(anchor)
        try:
            return super().compose_node(parent, index)  # type: ignore[misc]
        finally:
            self._depth -= 1
            if anchor is not None:
                self._composing.discard(anchor)

    def construct_document(self, node: Any) -> Any:
        _check_expanded_size(node)
        return super().construct_document(node)  # type: ignore[misc]


class _StrictLoader(_Strict, yaml.SafeLoader):
    """PyYAML's safe loader, all in Python, made strict: the reference, and what every
    document :class:`_LibyamlLoader` does not read is read with (its errors are the ones
    players see)."""

    def __init__(self, stream: str):
        yaml.SafeLoader.__init__(self, stream)
        self._start_counts()


_CParser: Any
try:  # PyYAML built with libyaml (its wheels are)
    from yaml.cyaml import CParser as _CParser  # type: ignore[attr-defined]
except ImportError:
    _CParser = None


if _CParser is not None:
    class _LibyamlLoader(_Strict, yaml.composer.Composer, _CParser,  # type: ignore[misc]
                         yaml.constructor.SafeConstructor, yaml.resolver.Resolver):
        """The same loader with libyaml's C scanner and parser underneath (the events only:
        the nodes are composed, checked, resolved and built by the same Python code as
        :class:`_StrictLoader`'s), about three times faster. Used first by
        :func:`parse_yaml_text`; anything it refuses is read again by the pure loader."""

        def __init__(self, stream: str):
            _CParser.__init__(self, stream)
            yaml.composer.Composer.__init__(self)
            yaml.constructor.SafeConstructor.__init__(self)
            yaml.resolver.Resolver.__init__(self)
            self._start_counts()


def _check_expanded_size(root: Any) -> None:
    """Refuse a node graph that would hold more than :data:`MAX_NODES` values once every alias
    is expanded (each shared node is counted once per use). Iterative: no recursion."""
    sizes: dict[int, int] = {}
    stack: list[tuple[Any, bool]] = [(root, False)]
    while stack:
        node, done = stack.pop()
        if id(node) in sizes:
            continue
        children = _children(node)
        if done or not children:
            total = 1 + sum(sizes[id(c)] for c in children)
            if total > MAX_NODES:
                raise yaml.composer.ComposerError(
                    None, None, f"more than {MAX_NODES} values once its aliases are expanded",
                    node.start_mark)
            sizes[id(node)] = total
            continue
        stack.append((node, True))
        stack.extend((c, False) for c in children if id(c) not in sizes)


def _children(node: Any) -> list[Any]:
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    if isinstance(node, yaml.MappingNode):
        return [part for pair in node.value for part in pair]
    return []


def _construct_mapping(loader: Any, node: yaml.MappingNode, deep: bool = False) -> Any:
    seen: set[Any] = set()
    for key_node, _value in node.value:
        key = loader.construct_object(key_node, deep=deep)
        try:
            duplicate = key in seen
        except TypeError:
            duplicate = False
        if duplicate:
            raise yaml.constructor.ConstructorError(
                None, None, f"duplicate key {excerpt(key)}", key_node.start_mark
            )
        try:
            seen.add(key)
        except TypeError:
            pass
    return loader.construct_mapping(node, deep=deep)


LOADERS: list[Any] = [_StrictLoader] if _CParser is None else [_LibyamlLoader, _StrictLoader]
"""The loaders :func:`parse_yaml_text` tries in turn: libyaml's first when PyYAML was built
with it, then the pure one, whose answer stands when the first one refuses a text (the same
data for every text both read; the tests hold both to it)."""
for _loader in LOADERS:
    _loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)


def check_plain_data(data: Any, source: str | None, max_nodes: int | None = MAX_NODES) -> Any:
    """Refuse what no solo-ops document may hold, naming the field: a number that is not
    finite or is beyond :data:`MAX_INTEGER`, a value that is not text, a number, true/false,
    a list or a mapping (dates, bytes, sets), nesting deeper than :data:`MAX_DEPTH` or more
    than ``max_nodes`` values. Iterative, so any nesting is safe to check."""
    problem = plain_data_problem(data, max_nodes)
    if problem is not None:
        field, message = problem
        raise InputError(message, source=source, field=field)
    return data


def plain_data_problem(data: Any, max_nodes: int | None = MAX_NODES
                       ) -> tuple[str | None, str] | None:
    """``(field, problem)`` of the first thing :func:`check_plain_data` refuses, or None.

    Iterative, and light on memory whatever the document: it walks the lists and mappings with
    one iterator per level open (never a copy of their items), and a value's field path is a
    link to its parent's (``(parent, key, is_index)``), written out only for the one it names.
    """
    count = 1
    if max_nodes is not None and count > max_nodes:
        return None, f"holds more than {max_nodes} values"
    problem = _container_problem(data, None, 0)
    if problem is not None or not isinstance(data, (dict, list)):
        return problem
    stack: list[tuple[Any, Any, bool]] = [(_items(data), None, isinstance(data, list))]
    while stack:
        items, where, is_list = stack[-1]
        pair = next(items, None)
        if pair is None:
            stack.pop()
            continue
        key, value = pair
        count += 1
        if max_nodes is not None and count > max_nodes:
            return None, f"holds more than {max_nodes} values"
        if not is_list:
            problem_text = _scalar_problem(key, is_key=True)
            if problem_text:
                return _field(where), problem_text
        here = (where, key, is_list)
        problem = _container_problem(value, here, len(stack))
        if problem is not None:
            return problem
        if isinstance(value, (dict, list)):
            stack.append((_items(value), here, isinstance(value, list)))
    return None


def _items(value: dict[Any, Any] | list[Any]) -> Any:
    """An iterator over ``(key, item)`` of a mapping or ``(index, item)`` of a list."""
    return iter(value.items()) if isinstance(value, dict) else enumerate(value)


def _container_problem(value: Any, where: Any, depth: int) -> tuple[str | None, str] | None:
    """What is wrong with one value on its own: too deep a container, or a bad scalar."""
    if isinstance(value, (dict, list)):
        if depth >= MAX_DEPTH and value:
            return _field(where), f"nested more than {MAX_DEPTH} levels deep"
        return None
    problem = _scalar_problem(value)
    return (_field(where), problem) if problem else None


def _field(where: Any) -> str | None:
    """The dotted field path of a ``(parent, key, is_index)`` chain (None for the document
    itself)."""
    parts: list[str] = []
    while where is not None:
        where, key, is_index = where
        parts.append(f"[{key}]" if is_index else clip(str(key)))
    path = ""
    for part in reversed(parts):
        path = f"{path}{part}" if part.startswith("[") or not path else f"{path}.{part}"
    return path or None


def _scalar_problem(value: Any, is_key: bool = False) -> str | None:
    what = "key" if is_key else "value"
    if value is None or isinstance(value, (str, bool)):
        return None
    if isinstance(value, int):
        if abs(value) > MAX_INTEGER:
            return f"number too large ({excerpt(value)}; at most {MAX_INTEGER})"
        return None
    if isinstance(value, float):
        if not math.isfinite(value):
            return f"{what} is not a finite number ({value}): write a plain number"
        return None
    kind = {"date": "a date", "datetime": "a date", "bytes": "binary data",
            "set": "a set", "tuple": "a pair"}.get(type(value).__name__, type(value).__name__)
    return (f"{what} {excerpt(value)} is {kind}, which no solo-ops file holds "
            "(quote it to make it text)")


def parse_yaml_text(text: str, source: str) -> Any:
    """Parse YAML (or JSON, which YAML reads too) and name ``source`` in any error."""
    if len(text) > MAX_FILE_BYTES:
        raise InputError(f"is too large ({len(text)} characters; at most {MAX_FILE_BYTES})",
                         source=source)
    known = _PARSED.get(text)
    if known is not None:
        return plain_copy(known)
    fast = _fast_load(text)
    if fast is not None:
        data, loader = fast
        check_plain_data(data, source)
        _remember(text, data, loader)
        return data
    loader = None
    try:
        loader = _StrictLoader(text)  # (its reader refuses a control character at once)
        data = loader.get_single_data()
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        where = f"line {mark.line + 1}" if mark is not None else None
        problem = exc.problem or exc.context or "malformed YAML"
        raise InputError(f"malformed YAML: {clip(problem, 120)}", source=source,
                         field=where) from None
    except yaml.YAMLError as exc:
        raise InputError(f"malformed YAML: {clip(str(exc), 120)}",
                         source=source) from None
    except (ValueError, OverflowError) as exc:  # int("9" * 5000), a date like 2024-13-45
        raise InputError(f"malformed YAML: a value cannot be read ({clip(str(exc))})",
                         source=source) from None
    except RecursionError:
        raise InputError(f"nested more than {MAX_DEPTH} levels deep", source=source) from None
    finally:
        if loader is not None:
            loader.dispose()
    check_plain_data(data, source)
    _remember(text, data, loader)
    return data


def _fast_load(text: str) -> tuple[Any, Any] | None:
    """``(data, loader)`` read by the loaders before the last of :data:`LOADERS` (libyaml's),
    or None when there are none or they refuse the text: whatever they refuse, the pure
    loader reads again, so that its error is the one named (their own words differ)."""
    for loader_class in LOADERS[:-1]:
        loader = None
        try:
            loader = loader_class(text)
            return loader.get_single_data(), loader
        except Exception:  # any refusal: the pure loader reads it again and says why
            continue
        finally:
            if loader is not None:
                loader.dispose()
    return None


def _remember(text: str, data: Any, loader: Any) -> None:
    """Keep ``data`` as ``text``'s in :data:`_PARSED` (a copy; not a document with aliases,
    whose copy would not share what they share, nor a long one)."""
    global _parsed_nodes
    if (loader is None or loader.aliases != 0 or loader.nodes > PARSED_NODES
            or not isinstance(data, (dict, list))):
        return
    if len(_PARSED) >= PARSED_LIMIT or _parsed_nodes + loader.nodes > PARSED_ALL_NODES:
        _PARSED.clear()
        _parsed_nodes = 0
    _PARSED[text] = plain_copy(data)
    _parsed_nodes += loader.nodes


PARSED_LIMIT = 256
"""Most documents :func:`parse_yaml_text` remembers (by their text): forgotten all at once
when full, or when they would hold more than :data:`PARSED_ALL_NODES` values."""
PARSED_NODES = 5_000
"""Most values of a document :func:`parse_yaml_text` remembers (the largest shipped file holds
under 2,000): a longer one is parsed afresh every time."""
PARSED_ALL_NODES = 100_000
"""Most values the remembered documents hold together (about 10-20 MB of Python objects with
their texts, whatever the files: a value is counted, not a character)."""
_parsed_nodes = 0
"""The values the documents in :data:`_PARSED` hold together."""
_PARSED: dict[str, Any] = {}
"""Text -> its data, as parsed and checked (a copy nobody else holds): the same file read
again (a scenario's board and rosters at every command a test or a campaign's proposal runs
in one process) costs a copy of plain data instead of PyYAML's pure-Python parse, which is
about 240 times dearer (36 shipped files: 0.38 s to parse, 1.6 ms to copy). Documents with
aliases are not remembered: a copy would not share what their aliases share."""


def plain_copy(data: Any) -> Any:
    """A copy of plain data (mappings, lists and the values they hold, which are immutable):
    what a caller may change without changing the remembered document."""
    if type(data) is dict:
        return {k: plain_copy(v) for k, v in data.items()}
    if type(data) is list:
        return [plain_copy(v) for v in data]
    return data


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number solo-ops accepts")


def json_parts(text: str | bytes) -> int:
    """An upper bound on the values a JSON text holds, counted without parsing it: every value
    but the first follows a ``[``, ``{``, ``,`` or ``:`` (one inside a string counts too, so
    this never counts too few). A few passes over the bytes in C: cheap for any size."""
    if isinstance(text, str):
        return sum(text.count(c) for c in "[{,:") + 1
    return sum(text.count(c) for c in (b"[", b"{", b",", b":")) + 1


def saved_values_problem(text: str | bytes) -> str | None:
    """Why a save or log text is refused before it is parsed, or None: more than
    :data:`MAX_SAVED_VALUES` values (by :func:`json_parts`), which no game comes near and which
    would take the parser gigabytes (a 25 MB list of empty lists is 8 million of them)."""
    parts = json_parts(text)
    if parts > MAX_SAVED_VALUES:
        return f"holds more than {MAX_SAVED_VALUES} values"
    return None


def loads_json(text: str, *, max_values: int | None = MAX_SAVED_VALUES) -> Any:
    """``json.loads`` for files solo-ops wrote itself (saves, logs): strict, and every problem
    a :class:`json.JSONDecodeError` — NaN and infinities, 5,000-digit numbers, nesting deep
    enough to exhaust Python's stack and more than ``max_values`` values (counted before
    parsing, :func:`json_parts`) included — so readers have one error to handle. The size of
    the file is its reader's limit (:data:`solo_ops.core.limits.FILES`)."""
    if max_values is not None and json_parts(text) > max_values:
        raise json.JSONDecodeError(f"holds more than {max_values} values", text, 0)
    try:
        data = json.loads(text, parse_constant=_refuse_constant)
    except json.JSONDecodeError:
        raise
    except RecursionError:
        raise json.JSONDecodeError(f"nested more than {MAX_DEPTH} levels deep", text,
                                   0) from None
    except (ValueError, OverflowError) as exc:
        raise json.JSONDecodeError(clip(str(exc)), text, 0) from None
    problem = plain_data_problem(data, max_nodes=None)
    if problem is not None:
        field, message = problem
        raise json.JSONDecodeError(f"{field}: {message}" if field else message, text, 0)
    return data


def parse_json_text(text: str, source: str) -> Any:
    """Parse JSON strictly (no NaN or Infinity, bounded size and nesting) and name ``source``
    and the line in any error."""
    if len(text) > MAX_FILE_BYTES:
        raise InputError(f"is too large ({len(text)} characters; at most {MAX_FILE_BYTES})",
                         source=source)
    try:
        data = json.loads(text, parse_constant=_refuse_constant)
    except json.JSONDecodeError as exc:
        raise InputError(f"malformed JSON: {exc.msg}", source=source,
                         field=f"line {exc.lineno}") from None
    except RecursionError:
        raise InputError(f"nested more than {MAX_DEPTH} levels deep", source=source) from None
    except (ValueError, OverflowError) as exc:
        raise InputError(f"malformed JSON: {clip(str(exc))}", source=source) from None
    return check_plain_data(data, source)

"""The terrain shapes cover questions meet, and their caches: :class:`_CoverShapes`.

Cover-giving and Heavy features are eroded and prepared once per board
(:func:`_eroded_parts`; Heavy outlines also as flat arrays for the compiled triangle test,
:func:`ragged`). Circle polygons of bases and 1" zones (:meth:`_CoverShapes._circles`),
whether a 1" zone meets a Heavy feature (:meth:`_CoverShapes.zones_touch`) and each target's
cover regions (:meth:`_CoverShapes._cover_regions_of`) are remembered per exact arguments.
"""

from __future__ import annotations

from typing import cast

import numpy as np
import shapely
from shapely.geometry.base import BaseGeometry

from solo_ops.geometry.board import Feature
from solo_ops.geometry.sight.circles import circle_polygons
from solo_ops.geometry.sight.common import (
    ERODE,
    PAIR_MEMO_LIMIT,
    SHAPE_MEMO_LIMIT,
    _area,
    _row_keys,
)


def ragged(geoms: np.ndarray) -> tuple[np.ndarray, ...] | None:
    """Polygons and multipolygons as the flat arrays the compiled outline tests read
    (:func:`jit.sight.heavy_candidates`, :func:`jit.sight.obscure_witness`):
    (coordinates, ring starts, each polygon's rings, each geometry's polygons), every offset
    array one longer than what it indexes; None for other geometry types."""
    if len(geoms) == 0:
        return None
    try:
        kind, coords, offsets = shapely.to_ragged_array(geoms)
    except ValueError:  # points, lines or collections among them
        return None
    per_geom: np.ndarray
    if int(kind) == int(shapely.GeometryType.POLYGON):
        rings, polys = offsets
        per_geom = np.arange(len(polys), dtype=np.int64)
    elif int(kind) == int(shapely.GeometryType.MULTIPOLYGON):
        rings, polys, per_geom = offsets
    else:
        return None
    return (np.ascontiguousarray(coords, dtype=float), rings.astype(np.int64),
            polys.astype(np.int64), per_geom.astype(np.int64))


def _eroded_parts(features: list[Feature]) -> np.ndarray:
    """Each feature's footprint shrunk by :data:`ERODE` (as the reference erodes each feature
    on its own), prepared, as an object array (empty geometries kept, so indices match)."""
    parts = np.array([_area(f) for f in features] or [], dtype=object)
    if len(parts) == 0:
        return parts
    parts = shapely.buffer(parts, -ERODE, quad_segs=16)
    shapely.prepare(parts)
    return parts


class _CoverShapes:
    """The prepared cover-giving and Heavy terrain of a board and the remembered circles, zone
    touches and cover regions (all built by :class:`~solo_ops.geometry.sight.query.Sight`)."""

    cover_parts: np.ndarray
    _cover_tree: shapely.STRtree
    heavy_parts: np.ndarray
    heavy_box: np.ndarray
    heavy_is_box: np.ndarray
    heavy_ragged: tuple[np.ndarray, ...] | None
    _circle_memo: dict[bytes, BaseGeometry]
    _touch_memo: dict[tuple[bytes, int], bool]
    _region_memo: dict[bytes, np.ndarray]

    def _circles(self, centres: np.ndarray, radii: np.ndarray) -> np.ndarray:
        """Prepared circle polygons (``shapely.buffer`` of each centre by its radius, with
        :data:`QUAD_SEGS`, as the reference's) as an object array, remembered per exact
        ``(x, y, r)``: the same bases and 1" zones come back call after call."""
        n = len(centres)
        rows = np.empty((n, 3))
        rows[:, 0:2] = centres
        rows[:, 2] = radii
        keys = _row_keys(rows)
        memo = self._circle_memo
        found = [memo.get(k) for k in keys]
        miss = [i for i, g in enumerate(found) if g is None]
        if miss:
            idx = np.array(miss, dtype=np.intp)
            made = circle_polygons(rows[idx, 0:2], rows[idx, 2])
            if len(memo) + len(miss) > SHAPE_MEMO_LIMIT:
                memo.clear()
            for i, geom in zip(miss, made, strict=True):
                found[i] = memo[keys[i]] = geom
        out = np.empty(n, dtype=object)
        out[:] = found
        return out

    def zones_touch(self, centres: np.ndarray, radii: np.ndarray, feats: np.ndarray,
                    keep_circles: bool = True) -> np.ndarray:
        """(n,) whether the circle (:meth:`_circles`) of ``centres[k]``, ``radii[k]`` meets
        Heavy feature ``feats[k]``, remembered per exact circle and feature: the same bases'
        1" zones are asked about the same walls again and again (about 80% of the time).
        ``keep_circles=False``: the circles asked about are made without being remembered
        (the same polygons; an attacker's many candidate points would crowd out the bases)."""
        n = len(centres)
        rows = np.empty((n, 3))
        rows[:, 0:2] = centres
        rows[:, 2] = radii
        keys = list(zip(_row_keys(rows), feats.tolist(), strict=True))
        memo = self._touch_memo
        found = [memo.get(k) for k in keys]
        out = np.array([bool(v) for v in found], dtype=bool)
        miss = [i for i, v in enumerate(found) if v is None]
        if miss:
            idx = np.array(miss, dtype=np.intp)
            make = self._circles if keep_circles else circle_polygons
            got = shapely.intersects(make(rows[idx, 0:2], rows[idx, 2]),
                                     self.heavy_parts[feats[idx]])
            out[idx] = got
            if len(memo) + len(miss) > PAIR_MEMO_LIMIT:
                memo.clear()
            memo.update(zip([keys[i] for i in miss], got.tolist(), strict=True))
        return out

    def _cover_regions_of(self, centres: np.ndarray, rb: np.ndarray, t_radius: np.ndarray,
                          cover_use: np.ndarray) -> list[np.ndarray]:
        """For each target base (centre, radius ``rb``, polygon radius ``t_radius``), the
        prepared regions where the cover-giving features in use would put it in cover: each
        feature's part within 1" of the base and outside the base itself. Remembered per
        exact target and ``cover_use``."""
        n = len(centres)
        rows = np.empty((n, 4))
        rows[:, 0:2] = centres
        rows[:, 2] = rb
        rows[:, 3] = t_radius
        use = cover_use.tobytes()
        keys = [k + use for k in _row_keys(rows)]
        memo = self._region_memo
        found: list[np.ndarray | None] = [memo.get(k) for k in keys]
        miss = np.array([i for i, g in enumerate(found) if g is None], dtype=np.intp)
        if len(miss):
            # The 1" zones are built only for targets with a feature in use whose box meets
            # the zone's box (the zone polygon lies inside the square of its radius).
            at, reach = centres[miss], rb[miss] + 1.0
            pad = reach + 1e-9
            boxes = shapely.box(at[:, 0] - pad, at[:, 1] - pad, at[:, 0] + pad, at[:, 1] + pad)
            zi, fi = self._cover_tree.query(boxes)
            keep = cover_use[fi]
            zi, fi = zi[keep], fi[keep]
            zones = np.empty(len(miss), dtype=object)
            near = np.unique(zi)
            zones[near] = self._circles(at[near], reach[near])
            meets = shapely.intersects(zones[zi], self.cover_parts[fi])
            zi, fi = zi[meets], fi[meets]
            discs = self._circles(centres[miss[zi]], t_radius[miss[zi]])
            regions = shapely.difference(shapely.intersection(self.cover_parts[fi], zones[zi]),
                                         discs)
            ok = ~shapely.is_empty(regions)
            zi, regions = zi[ok], regions[ok]
            shapely.prepare(regions)
            order = np.argsort(zi, kind="stable")
            zi, regions = zi[order], regions[order]
            start = np.searchsorted(zi, np.arange(len(miss) + 1))
            if len(memo) + len(miss) > SHAPE_MEMO_LIMIT:
                memo.clear()
            for m, i in enumerate(miss.tolist()):
                found[i] = memo[keys[i]] = regions[start[m]:start[m + 1]]
        return cast(list[np.ndarray], found)

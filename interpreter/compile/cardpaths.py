"""Where cards can go: the zones each zone's cards may reach through the rule file's moves and draws.

Every `move card(s) … from A to B` and `draw n from A to B` is a path from A to B. A path between two zones of
the same player expression (`me.hand` to `me.played`) keeps the owner, one between two members of a zone
family picked by the same key expression keeps the key; any other path joins every member to every member.
A view's determinization deals the cards a player cannot see only into zones their starting zone reaches.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from meeple.rules import nodes as n

if TYPE_CHECKING:
    from meeple.compile.ir import ZoneDef

# How a statement names a zone: ("shared", name, None), ("player", name, owner node) or
# ("keyed", family, key node); None when it is no zone (reported elsewhere).
Pattern = tuple[str, str, Any] | None


def zone_pattern(node: n.Node, player_zones: set[str], keyed: dict[str, Any]) -> Pattern:
    if isinstance(node, n.Name) and node.id not in keyed:
        return ("shared", node.id, None)
    if isinstance(node, n.Attr) and node.name in player_zones:
        return ("player", node.name, node.obj)
    if isinstance(node, n.Index) and isinstance(node.obj, n.Name) and node.obj.id in keyed:
        return ("keyed", node.obj.id, node.key)
    return None


def reach(
    paths: list[tuple[Pattern, Pattern]], zones: tuple[ZoneDef, ...], players: int
) -> dict[str, frozenset[str]]:
    """Every zone key -> the keys its cards can be in later (itself included)."""
    members = {z.name: z.key_names(players) for z in zones}
    edges: dict[str, set[str]] = {key: set() for keys in members.values() for key in keys}
    for src, dst in paths:
        if src is None or dst is None or src[1] not in members or dst[1] not in members:
            continue
        for a, b in _pairs(src, dst, members):
            edges[a].add(b)
    out = {}
    for start in edges:
        seen, todo = {start}, [start]
        while todo:
            for nxt in edges[todo.pop()]:
                if nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        out[start] = frozenset(seen)
    return out


def _pairs(src: tuple[str, str, Any], dst: tuple[str, str, Any], members: dict[str, list[str]]) -> Any:
    a_keys, b_keys = members[src[1]], members[dst[1]]
    same_kind = src[0] == dst[0] and src[0] in ("player", "keyed")
    if same_kind and src[2] == dst[2] and len(a_keys) == len(b_keys):
        if src[0] == "player":  # the same player on both sides: member i to member i
            return zip(a_keys, b_keys)
        by_key = {k.partition("#")[2]: k for k in b_keys}  # the same key on both sides
        return [(a, by_key[a.partition("#")[2]]) for a in a_keys if a.partition("#")[2] in by_key]
    return [(a, b) for a in a_keys for b in b_keys]

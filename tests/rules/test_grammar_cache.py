"""The grammar's parser tables come with meeple (`grammar/meeple.lark-tables`), stamped with the grammar
they were built from and Lark's version. Where they cannot serve (another Lark, a damaged file), Lark's
own tables are kept in a cache file, so a new process loads them instead of building them: in the user's
cache directory, or `MEEPLE_CACHE_DIR`; none when that is empty. A damaged or stale file is built again,
never an error."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import lark
import pytest

from meeple.data import data_dir
from meeple.rules import lark_parser

SAMPLE = "count(pieces(\\'rope\\', owner=p)) + 1 >= 2"
PARSE = f"from meeple.rules.syntax import parse; print(parse('{SAMPLE}'))"
# As PARSE, with no shipped tables found: the cache file is what serves
PARSE_CACHED = f"from meeple.rules import lark_parser; lark_parser.TABLES = 'none here'; {PARSE}"


def run(cache: str, code: str = PARSE_CACHED, **env: str) -> str:
    env = {**os.environ, "MEEPLE_CACHE_DIR": cache, **env}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stderr == ""
    return out.stdout


def test_the_tables_are_kept_in_the_cache_directory_and_read_back(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    first = run(str(cache))
    files = list(cache.iterdir())

    assert [f.name for f in files] == ["grammar.lark-tables"]
    stamp = files[0].stat().st_mtime_ns
    assert run(str(cache)) == first
    assert files[0].stat().st_mtime_ns == stamp  # read, not written again


def test_a_damaged_cache_file_is_built_again(tmp_path: Path) -> None:
    expected = run(str(tmp_path))
    (tmp_path / "grammar.lark-tables").write_bytes(b"not the tables\n\x00\x01")

    assert run(str(tmp_path)) == expected
    assert (tmp_path / "grammar.lark-tables").read_bytes().startswith(b"not the tables") is False


def test_an_empty_cache_directory_setting_keeps_no_file(tmp_path: Path) -> None:
    home, xdg = tmp_path / "home", tmp_path / "xdg"

    assert run("", HOME=str(home), XDG_CACHE_HOME=str(xdg)) == run(str(tmp_path / "elsewhere"))
    assert not home.exists() and not xdg.exists()


@pytest.mark.skipif(sys.platform != "linux", reason="XDG_CACHE_HOME names the cache directory on Linux only")
def test_without_a_setting_the_file_is_in_the_users_cache_directory(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "MEEPLE_CACHE_DIR"}
    env.update(HOME=str(tmp_path), XDG_CACHE_HOME=str(tmp_path / "xdg"))
    subprocess.run([sys.executable, "-c", PARSE_CACHED], env=env, capture_output=True, text=True, check=True)

    assert (tmp_path / "xdg" / "meeple" / "grammar.lark-tables").is_file()


def test_a_cache_directory_that_cannot_be_made_keeps_no_file(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")

    assert run(str(blocker / "cache")) == run(str(tmp_path / "ok"))


def test_the_shipped_tables_are_of_this_grammar() -> None:
    shipped = (data_dir("grammar") / lark_parser.TABLES).read_bytes().split(b"\n", 2)
    hint = "build them again: python -m meeple.rules.lark_parser grammar/meeple.lark-tables"

    assert shipped[0] == lark_parser.tables_stamp()[0], hint


def test_the_shipped_tables_serve_and_parse_as_the_grammar_built_afresh() -> None:
    built_with = (data_dir("grammar") / lark_parser.TABLES).read_bytes().split(b"\n", 2)[1].decode()
    if built_with != lark.__version__:
        pytest.skip(f"the shipped tables are of Lark {built_with}, not {lark.__version__}: build them again")
    shipped, built = lark_parser.shipped_parser(), lark_parser.build_parser()
    assert shipped is not None
    texts = {
        "expr": ["a.b[2] + f(x, y=3) if not c else -d", "2 rope + (n) bolt", "[x for x in xs if x > 1]"],
        "stmt": ["gain 2 rope to p", "grant take(n=1) by p optional"],
        "for_clause": ["c in corners"],
    }
    for start, items in texts.items():
        for text in items:
            a, b = shipped.parse(text, start=start), built.parse(text, start=start)
            assert a == b
            assert [(t.meta.start_pos, t.meta.end_pos) for t in a.iter_subtrees()] == [
                (t.meta.start_pos, t.meta.end_pos) for t in b.iter_subtrees()
            ]


def test_with_the_shipped_tables_no_cache_file_is_written(tmp_path: Path) -> None:
    assert run(str(tmp_path), PARSE) == run(str(tmp_path / "other"))
    assert not (tmp_path / "grammar.lark-tables").exists()  # the shipped tables served: Lark built none


def test_damaged_shipped_tables_are_not_used(tmp_path: Path) -> None:
    folder = tmp_path / "grammar"  # a copy of the grammar, its tables cut short
    folder.mkdir()
    (folder / "meeple.lark").write_text(lark_parser.grammar_text(), encoding="utf-8")
    good = (data_dir("grammar") / lark_parser.TABLES).read_bytes()
    (folder / lark_parser.TABLES).write_bytes(good[: len(good) // 2])
    code = (
        "from pathlib import Path; from meeple.rules import lark_parser; "
        f"lark_parser.data_dir = lambda _: Path({str(folder)!r}); {PARSE}"
    )

    assert run(str(tmp_path / "cache"), code) == run(str(tmp_path / "c2"))
    assert (tmp_path / "cache" / "grammar.lark-tables").is_file()  # built, and kept, instead
